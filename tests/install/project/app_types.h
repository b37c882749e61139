/* app_types.h — types and constants of app_events.h, a header of its own that the manifest
 * includes: touching it must regenerate (tests/install/test_install.c). */
#ifndef APP_TYPES_H
#define APP_TYPES_H

#include <evgen/manifest.h>

#define APP_REQUEST_EVENT_ID 7
#define APP_LEVEL_INFORMATION 4
#define APP_KEYWORD_REQUESTS 0x1

typedef enum AppStatus {
    AppStatus_Ok = 0,
    AppStatus_NotFound = 1,
    AppStatus_Failed = 2
} AppStatus;

#endif
