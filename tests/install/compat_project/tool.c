/* tool.c — the tool that reads the manifest's events: counts the Order events of a trace. */
#include <stdio.h>
#include <stdlib.h>

#include "shop_reader.h"

int main(int argc, char **argv)
{
    if (argc != 2)
        return 2;
    evgen_reader *reader = evgen_reader_open(argv[1], NULL);
    if (!reader)
        return 1;
    evgen_event ev;
    unsigned orders = 0;
    while (evgen_reader_next(reader, &ev))
        orders += Order_is(&ev);
    evgen_reader_close(reader);
    printf("%u orders\n", orders);
    return 0;
}
