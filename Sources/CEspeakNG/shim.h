#include <espeak-ng/speak_lib.h>
#include <espeak-ng/espeak_ng.h>

/* The functions OTCPromptSpeech resolves with dlsym (EspeakFunctions), typed from the header's own
   declarations: a signature that changes upstream fails the build rather than a call at run time. */
typedef __typeof__(espeak_Initialize) *otc_espeak_Initialize;
typedef __typeof__(espeak_SetSynthCallback) *otc_espeak_SetSynthCallback;
typedef __typeof__(espeak_SetVoiceByName) *otc_espeak_SetVoiceByName;
typedef __typeof__(espeak_SetParameter) *otc_espeak_SetParameter;
typedef __typeof__(espeak_Synth) *otc_espeak_Synth;
typedef __typeof__(espeak_SetPhonemeTrace) *otc_espeak_SetPhonemeTrace;
typedef __typeof__(espeak_TextToPhonemes) *otc_espeak_TextToPhonemes;
