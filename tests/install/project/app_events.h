/* app_events.h — the install test project's manifest: one event, two versions (version 1
 * appends Bytes). Its lock, app_events.lock, freezes both. */
#include <evgen/manifest.h>
#include "app_types.h"

EVENT_PROVIDER(AppProvider, "Evgen-Install-Test")

KNOWN_EVENT(Request, APP_REQUEST_EVENT_ID, AppProvider, APP_LEVEL_INFORMATION, APP_KEYWORD_REQUESTS)
EVENT_FIELD(Request, 0, uint32_t, Id)
EVENT_FIELD(Request, 0, AppStatus, Status)
EVENT_FIELD(Request, 1, uint64_t, Bytes)

#include <evgen/manifest_end.h>
