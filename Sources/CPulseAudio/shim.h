// The part of PulseAudio's asynchronous client API (libpulse.so.0, LGPL-2.1+) that
// PulseAudioSink uses, declared here with the signatures and values of <pulse/*.h> 16.1, so that
// building needs no libpulse-dev (which pulls in GLib's development files). These functions and
// constants are part of libpulse's stable ABI since 0.9.
#ifndef OTC_PROMPT_PULSE_SHIM_H
#define OTC_PROMPT_PULSE_SHIM_H

#include <stddef.h>
#include <stdint.h>

typedef struct pa_threaded_mainloop pa_threaded_mainloop;
typedef struct pa_mainloop_api pa_mainloop_api;
typedef struct pa_context pa_context;
typedef struct pa_stream pa_stream;
typedef struct pa_operation pa_operation;
typedef struct pa_channel_map pa_channel_map;
typedef struct pa_cvolume pa_cvolume;
typedef struct pa_spawn_api pa_spawn_api;
typedef struct pa_time_event pa_time_event;
typedef uint64_t pa_usec_t;
struct timeval;

/* <pulse/sample.h> */
typedef struct pa_sample_spec {
    int format; /* pa_sample_format_t */
    uint32_t rate;
    uint8_t channels;
} pa_sample_spec;
#define OTC_PA_SAMPLE_S16LE 3

/* <pulse/def.h> */
typedef struct pa_buffer_attr {
    uint32_t maxlength;
    uint32_t tlength;
    uint32_t prebuf;
    uint32_t minreq;
    uint32_t fragsize;
} pa_buffer_attr;

#define OTC_PA_CONTEXT_READY 4
#define OTC_PA_CONTEXT_FAILED 5
#define OTC_PA_CONTEXT_TERMINATED 6
#define OTC_PA_STREAM_READY 2
#define OTC_PA_STREAM_FAILED 3
#define OTC_PA_STREAM_TERMINATED 4
#define OTC_PA_STREAM_INTERPOLATE_TIMING 0x0002U
#define OTC_PA_STREAM_AUTO_TIMING_UPDATE 0x0008U
#define OTC_PA_STREAM_ADJUST_LATENCY 0x2000U
#define OTC_PA_SEEK_RELATIVE 0
#define OTC_PA_OPERATION_RUNNING 0

typedef void (*pa_context_notify_cb_t)(pa_context *c, void *userdata);
typedef void (*pa_stream_notify_cb_t)(pa_stream *p, void *userdata);
typedef void (*pa_stream_success_cb_t)(pa_stream *s, int success, void *userdata);
typedef void (*pa_free_cb_t)(void *p);
typedef void (*pa_time_event_cb_t)(pa_mainloop_api *a, pa_time_event *e, const struct timeval *tv, void *userdata);

/* <pulse/thread-mainloop.h> */
pa_threaded_mainloop *pa_threaded_mainloop_new(void);
void pa_threaded_mainloop_free(pa_threaded_mainloop *m);
int pa_threaded_mainloop_start(pa_threaded_mainloop *m);
void pa_threaded_mainloop_stop(pa_threaded_mainloop *m);
void pa_threaded_mainloop_lock(pa_threaded_mainloop *m);
void pa_threaded_mainloop_unlock(pa_threaded_mainloop *m);
void pa_threaded_mainloop_wait(pa_threaded_mainloop *m);
void pa_threaded_mainloop_signal(pa_threaded_mainloop *m, int wait_for_accept);
pa_mainloop_api *pa_threaded_mainloop_get_api(pa_threaded_mainloop *m);

/* <pulse/context.h> */
pa_context *pa_context_new(pa_mainloop_api *mainloop, const char *name);
void pa_context_unref(pa_context *c);
void pa_context_set_state_callback(pa_context *c, pa_context_notify_cb_t cb, void *userdata);
int pa_context_errno(const pa_context *c);
int pa_context_get_state(const pa_context *c); /* pa_context_state_t */
int pa_context_connect(pa_context *c, const char *server, unsigned flags, const pa_spawn_api *api);
void pa_context_disconnect(pa_context *c);
pa_time_event *pa_context_rttime_new(const pa_context *c, pa_usec_t usec, pa_time_event_cb_t cb, void *userdata);
void pa_context_rttime_restart(const pa_context *c, pa_time_event *e, pa_usec_t usec);

/* <pulse/rtclock.h> */
pa_usec_t pa_rtclock_now(void);

/* <pulse/stream.h> */
pa_stream *pa_stream_new(pa_context *c, const char *name, const pa_sample_spec *ss, const pa_channel_map *map);
void pa_stream_unref(pa_stream *s);
int pa_stream_get_state(const pa_stream *p); /* pa_stream_state_t */
void pa_stream_set_state_callback(pa_stream *s, pa_stream_notify_cb_t cb, void *userdata);
void pa_stream_set_underflow_callback(pa_stream *p, pa_stream_notify_cb_t cb, void *userdata);
int pa_stream_connect_playback(pa_stream *s, const char *dev, const pa_buffer_attr *attr, unsigned flags,
                               const pa_cvolume *volume, pa_stream *sync_stream);
int pa_stream_disconnect(pa_stream *s);
int pa_stream_write(pa_stream *p, const void *data, size_t nbytes, pa_free_cb_t free_cb, int64_t offset,
                    int seek);
pa_operation *pa_stream_flush(pa_stream *s, pa_stream_success_cb_t cb, void *userdata);
int pa_stream_get_latency(pa_stream *s, pa_usec_t *r_usec, int *negative);
pa_operation *pa_stream_update_timing_info(pa_stream *p, pa_stream_success_cb_t cb, void *userdata);

/* <pulse/operation.h>, <pulse/error.h> */
void pa_operation_unref(pa_operation *o);
int pa_operation_get_state(const pa_operation *o); /* pa_operation_state_t */
const char *pa_strerror(int error);

/* The functions OTCPromptSpeech resolves with dlsym (PulseFunctions), typed from the declarations above. */
typedef __typeof__(pa_threaded_mainloop_new) *otc_pa_threaded_mainloop_new;
typedef __typeof__(pa_threaded_mainloop_free) *otc_pa_threaded_mainloop_free;
typedef __typeof__(pa_threaded_mainloop_start) *otc_pa_threaded_mainloop_start;
typedef __typeof__(pa_threaded_mainloop_stop) *otc_pa_threaded_mainloop_stop;
typedef __typeof__(pa_threaded_mainloop_lock) *otc_pa_threaded_mainloop_lock;
typedef __typeof__(pa_threaded_mainloop_unlock) *otc_pa_threaded_mainloop_unlock;
typedef __typeof__(pa_threaded_mainloop_wait) *otc_pa_threaded_mainloop_wait;
typedef __typeof__(pa_threaded_mainloop_signal) *otc_pa_threaded_mainloop_signal;
typedef __typeof__(pa_threaded_mainloop_get_api) *otc_pa_threaded_mainloop_get_api;
typedef __typeof__(pa_context_new) *otc_pa_context_new;
typedef __typeof__(pa_context_unref) *otc_pa_context_unref;
typedef __typeof__(pa_context_set_state_callback) *otc_pa_context_set_state_callback;
typedef __typeof__(pa_context_errno) *otc_pa_context_errno;
typedef __typeof__(pa_context_get_state) *otc_pa_context_get_state;
typedef __typeof__(pa_context_connect) *otc_pa_context_connect;
typedef __typeof__(pa_context_disconnect) *otc_pa_context_disconnect;
typedef __typeof__(pa_context_rttime_new) *otc_pa_context_rttime_new;
typedef __typeof__(pa_context_rttime_restart) *otc_pa_context_rttime_restart;
typedef __typeof__(pa_rtclock_now) *otc_pa_rtclock_now;
typedef __typeof__(pa_stream_new) *otc_pa_stream_new;
typedef __typeof__(pa_stream_unref) *otc_pa_stream_unref;
typedef __typeof__(pa_stream_get_state) *otc_pa_stream_get_state;
typedef __typeof__(pa_stream_set_state_callback) *otc_pa_stream_set_state_callback;
typedef __typeof__(pa_stream_set_underflow_callback) *otc_pa_stream_set_underflow_callback;
typedef __typeof__(pa_stream_connect_playback) *otc_pa_stream_connect_playback;
typedef __typeof__(pa_stream_write) *otc_pa_stream_write;
typedef __typeof__(pa_stream_flush) *otc_pa_stream_flush;
typedef __typeof__(pa_stream_get_latency) *otc_pa_stream_get_latency;
typedef __typeof__(pa_stream_update_timing_info) *otc_pa_stream_update_timing_info;
typedef __typeof__(pa_operation_unref) *otc_pa_operation_unref;
typedef __typeof__(pa_operation_get_state) *otc_pa_operation_get_state;
typedef __typeof__(pa_strerror) *otc_pa_strerror;

#endif
