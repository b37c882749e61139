/* events.h — the compat test project's manifest: Order in two versions (version 1 appends Bytes)
 * and Refund. The test appends versions, records golden traces and breaks shipped ones. */
#include <evgen/manifest.h>

EVENT_PROVIDER(ShopProvider, "Evgen-Compat-Test")

KNOWN_EVENT(Order, 1, ShopProvider, 4, 0x1)
EVENT_FIELD(Order, 0, uint32_t, Id)
EVENT_FIELD(Order, 0, double, Amount)
EVENT_FIELD(Order, 0, evgen_utf16z, Customer)
EVENT_FIELD(Order, 1, uint64_t, Bytes)

KNOWN_EVENT(Refund, 2, ShopProvider, 4, 0x1)
EVENT_FIELD(Refund, 0, uint32_t, OrderId)
EVENT_FIELD(Refund, 0, int64_t, Cents)

#include <evgen/manifest_end.h>
