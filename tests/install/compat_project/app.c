/* app.c — the program that fires the manifest's events (here: whether Order is enabled). */
#include "shop_runtime.h"

int main(void)
{
    return EventEnabledOrder() ? 1 : 0; /* no session: disabled */
}
