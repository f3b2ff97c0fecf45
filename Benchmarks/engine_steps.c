// The engine's start-up path in one process, step by step (docs/performance.md, "espeak-ng's audio probe
// declined"): dlopen libespeak-ng, espeak_Initialize (SYNCHRONOUS), the voice through its file, the first
// synth callback of the opening words. argv[1]: now|lazy (the dlopen flag); argv[2]: probe|noprobe (noprobe:
// this executable's create_audio_device_object returns NULL, as otc-prompt's EspeakAudioProbe does).
//   gcc -O2 -o engine-steps engine_steps.c -ldl -Wl,--export-dynamic-symbol=create_audio_device_object
#include <dlfcn.h>
#include <espeak-ng/speak_lib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
static int decline;
void *create_audio_device_object(const char *d, const char *a, const char *s) {
    if (decline) return NULL;
    void *h = dlopen("libpcaudio.so.0", RTLD_NOW | RTLD_LOCAL);
    void *(*real)(const char *, const char *, const char *) = dlsym(h, "create_audio_device_object");
    return real(d, a, s);
}
static double now_ms(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e3 + t.tv_nsec / 1e6; }
static double first = 0, start;
static int cb(short *w, int n, espeak_EVENT *e) { if (n > 0 && first == 0) first = now_ms(); return first ? 1 : 0; }
int main(int argc, char **argv) {
    int flag = strcmp(argv[1], "lazy") == 0 ? RTLD_LAZY : RTLD_NOW;
    decline = strcmp(argv[2], "noprobe") == 0;
    start = now_ms();
    void *h = dlopen("libespeak-ng.so.1", flag | RTLD_LOCAL);
    double loaded = now_ms();
    int (*init)(espeak_AUDIO_OUTPUT, int, const char *, int) = dlsym(h, "espeak_Initialize");
    void (*setcb)(t_espeak_callback *) = dlsym(h, "espeak_SetSynthCallback");
    espeak_ERROR (*voice)(const char *) = dlsym(h, "espeak_SetVoiceByName");
    espeak_ERROR (*synth)(const void *, size_t, unsigned int, espeak_POSITION_TYPE, unsigned int, unsigned int, unsigned int *, void *) = dlsym(h, "espeak_Synth");
    init(AUDIO_OUTPUT_SYNCHRONOUS, 10, NULL, espeakINITIALIZE_DONT_EXIT);
    double inited = now_ms();
    setcb(cb);
    voice("gmw/en");
    double voiced = now_ms();
    const char *text = "Verification code";
    synth(text, strlen(text) + 1, 0, POS_CHARACTER, 0, espeakCHARS_UTF8, NULL, NULL);
    printf("%s %s load %.2f init %.2f voice %.2f first-sample %.2f total %.2f\n", argv[1], argv[2],
           loaded - start, inited - loaded, voiced - inited, first - voiced, first - start);
    return 0;
}
