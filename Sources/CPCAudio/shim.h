#include <pcaudiolib/audio.h>

/* The functions OTCPromptSpeech resolves with dlsym (PCAudioFunctions), typed from the header. */
typedef __typeof__(create_audio_device_object) *otc_create_audio_device_object;
typedef __typeof__(audio_object_open) *otc_audio_object_open;
typedef __typeof__(audio_object_close) *otc_audio_object_close;
typedef __typeof__(audio_object_destroy) *otc_audio_object_destroy;
typedef __typeof__(audio_object_write) *otc_audio_object_write;
typedef __typeof__(audio_object_drain) *otc_audio_object_drain;
typedef __typeof__(audio_object_flush) *otc_audio_object_flush;
typedef __typeof__(audio_object_strerror) *otc_audio_object_strerror;
