// The part of BrlAPI's client API (libbrlapi.so.0.8, LGPL-2.1+) that OTCPromptBraille uses, declared here with the
// signatures and values of <brlapi.h> 0.8 (brltty 6.5), so that building needs no libbrlapi-dev. Only the handle
// functions (brlapi__*) are used: every connection is a handle of its own, with no state in the library's globals.
#ifndef OTC_PROMPT_BRLAPI_SHIM_H
#define OTC_PROMPT_BRLAPI_SHIM_H

#include <stddef.h>
#include <stdint.h>

typedef struct brlapi_handle_t brlapi_handle_t;
typedef uint64_t brlapi_keyCode_t;
typedef uint32_t brlapi_packetType_t;

typedef struct {
    const char *auth;
    const char *host;
} brlapi_connectionSettings_t;

typedef struct {
    int displayNumber;
    unsigned int regionBegin;
    int regionSize;
    const char *text;
    int textSize;
    const unsigned char *andMask;
    const unsigned char *orMask;
    int cursor;
    const char *charset;
} brlapi_writeArguments_t;

typedef struct {
    brlapi_keyCode_t first;
    brlapi_keyCode_t last;
} brlapi_range_t;

/* enum brlapi_error holds the number; the struct is brlapi_error_t */
typedef struct {
    int brlerrno;
    int libcerrno;
    int gaierrno;
    const char *errfun;
} brlapi_error_t;

/* brlapi_rangeType_t */
#define OTC_BRLAPI_RANGE_TYPE_ALL 0
#define OTC_BRLAPI_DISPLAY_DEFAULT (-1)
#define OTC_BRLAPI_CURSOR_OFF 0

typedef void (*brlapi__exceptionHandler_t)(
    brlapi_handle_t *handle, int error, brlapi_packetType_t type, const void *packet, size_t size);

size_t brlapi_getHandleSize(void);
int brlapi__openConnection(
    brlapi_handle_t *handle, const brlapi_connectionSettings_t *desiredSettings,
    brlapi_connectionSettings_t *actualSettings);
void brlapi__closeConnection(brlapi_handle_t *handle);
void brlapi__setClientData(brlapi_handle_t *handle, void *data);
void *brlapi__getClientData(brlapi_handle_t *handle);
brlapi__exceptionHandler_t brlapi__setExceptionHandler(brlapi_handle_t *handle, brlapi__exceptionHandler_t handler);
int brlapi__getDriverName(brlapi_handle_t *handle, char *buffer, size_t size);
int brlapi__getDisplaySize(brlapi_handle_t *handle, unsigned int *x, unsigned int *y);
int brlapi__enterTtyModeWithPath(brlapi_handle_t *handle, const int *ttys, int count, const char *driver);
int brlapi__leaveTtyMode(brlapi_handle_t *handle);
int brlapi__write(brlapi_handle_t *handle, const brlapi_writeArguments_t *arguments);
int brlapi__readKey(brlapi_handle_t *handle, int wait, brlapi_keyCode_t *code);
int brlapi__ignoreKeys(brlapi_handle_t *handle, int type, const brlapi_keyCode_t keys[], unsigned int count);
int brlapi__acceptKeyRanges(brlapi_handle_t *handle, const brlapi_range_t ranges[], unsigned int count);
brlapi_error_t *brlapi_error_location(void);
size_t brlapi_strerror_r(const brlapi_error_t *error, char *buffer, size_t size);

typedef __typeof__(brlapi_getHandleSize) *otc_brlapi_getHandleSize;
typedef __typeof__(brlapi__openConnection) *otc_brlapi__openConnection;
typedef __typeof__(brlapi__closeConnection) *otc_brlapi__closeConnection;
typedef __typeof__(brlapi__setClientData) *otc_brlapi__setClientData;
typedef __typeof__(brlapi__getClientData) *otc_brlapi__getClientData;
typedef __typeof__(brlapi__setExceptionHandler) *otc_brlapi__setExceptionHandler;
typedef __typeof__(brlapi__getDriverName) *otc_brlapi__getDriverName;
typedef __typeof__(brlapi__getDisplaySize) *otc_brlapi__getDisplaySize;
typedef __typeof__(brlapi__enterTtyModeWithPath) *otc_brlapi__enterTtyModeWithPath;
typedef __typeof__(brlapi__leaveTtyMode) *otc_brlapi__leaveTtyMode;
typedef __typeof__(brlapi__write) *otc_brlapi__write;
typedef __typeof__(brlapi__readKey) *otc_brlapi__readKey;
typedef __typeof__(brlapi__ignoreKeys) *otc_brlapi__ignoreKeys;
typedef __typeof__(brlapi__acceptKeyRanges) *otc_brlapi__acceptKeyRanges;
typedef __typeof__(brlapi_error_location) *otc_brlapi_error_location;
typedef __typeof__(brlapi_strerror_r) *otc_brlapi_strerror_r;

#endif
