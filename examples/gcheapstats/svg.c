/* svg.c — the SVG line chart of the five sizes over the GCs: plain SVG 1.1, no script, no external
 * reference, text escaped for XML. */
#include "svg.h"

#include <errno.h>
#include <stdio.h>

enum { WIDTH = 960, HEIGHT = 540, LEFT = 80, RIGHT = 790, TOP = 50, BOTTOM = 470 };

static const char *const series_names[GCLOG_HEAPS] = {"gen0", "gen1", "gen2", "LOH", "POH"};
static const char *const series_colors[GCLOG_HEAPS] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd"};

static void put_escaped(FILE *f, const char *text)
{
    for (; *text; text++) {
        switch (*text) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&apos;", f); break;
        default:
            if ((unsigned char)*text >= 0x20 || *text == '\t')
                fputc(*text, f);
        }
    }
}

/* The smallest of 1, 2, 5 times a power of ten that is at least `raw` (> 0). */
static double nice_step(double raw)
{
    double p = 1;
    while (p * 10 <= raw)
        p *= 10;
    while (p > raw)
        p /= 10;
    static const double mult[] = {1, 2, 5, 10};
    for (int i = 0; i < 4; i++)
        if (mult[i] * p >= raw)
            return mult[i] * p;
    return 10 * p;
}

static int has_value(const gclog_entry *e, int g)
{
    return e->has_sizes && (g != GCLOG_POH || e->has_poh);
}

typedef struct scale {
    double x_min, x_max, y_max, x_step, y_step;
} scale;

static double px(const scale *s, double x)
{
    return LEFT + (x - s->x_min) / (s->x_max - s->x_min) * (RIGHT - LEFT);
}

static double py(const scale *s, double y)
{
    return BOTTOM - y / s->y_max * (BOTTOM - TOP);
}

static scale make_scale(const gclog_entry *gcs, size_t n)
{
    scale s = {0, 1, 1, 1, 1};
    double peak = 0;
    for (size_t i = 0; i < n; i++) {
        if (i == 0 || gcs[i].number < s.x_min)
            s.x_min = gcs[i].number;
        if (i == 0 || gcs[i].number > s.x_max)
            s.x_max = gcs[i].number;
        for (int g = 0; g < GCLOG_HEAPS; g++)
            if (has_value(&gcs[i], g) && gcs[i].size[g] / 1e6 > peak)
                peak = gcs[i].size[g] / 1e6;
    }
    if (s.x_max <= s.x_min) {
        s.x_min -= 1;
        s.x_max += 1;
    }
    s.x_step = nice_step((s.x_max - s.x_min) / 10);
    if (s.x_step < 1)
        s.x_step = 1;
    s.y_step = peak > 0 ? nice_step(peak / 8) : 1;
    s.y_max = s.y_step;
    while (s.y_max < peak)
        s.y_max += s.y_step;
    return s;
}

static void axes(FILE *f, const scale *s)
{
    fprintf(f, "<g font-family=\"sans-serif\" font-size=\"12\" fill=\"#333\">\n");
    for (double y = 0; y <= s->y_max + s->y_step / 2; y += s->y_step) {
        fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", LEFT, py(s, y), RIGHT,
                py(s, y));
        fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n", LEFT - 6, py(s, y) + 4, y);
    }
    long long step = (long long)s->x_step, first = s->x_min <= 0 ? 0 : ((long long)s->x_min + step - 1) / step * step;
    for (double x = (double)first; x <= s->x_max; x += s->x_step) {
        fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#333\"/>\n", px(s, x), BOTTOM, px(s, x),
                BOTTOM + 5);
        fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%g</text>\n", px(s, x), BOTTOM + 18, x);
    }
    fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\"/>\n", LEFT, BOTTOM, RIGHT, BOTTOM);
    fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\"/>\n", LEFT, TOP, LEFT, BOTTOM);
    fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">GC number</text>\n", (LEFT + RIGHT) / 2, BOTTOM + 40);
    fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" transform=\"rotate(-90 %d %d)\">"
               "Size after the GC (MB)</text>\n",
            LEFT - 55, (TOP + BOTTOM) / 2, LEFT - 55, (TOP + BOTTOM) / 2);
    fprintf(f, "</g>\n");
}

static void lines_and_legend(FILE *f, const scale *s, const gclog_entry *gcs, size_t n)
{
    int legend_row = 0;
    for (int g = 0; g < GCLOG_HEAPS; g++) {
        size_t points = 0;
        for (size_t i = 0; i < n; i++)
            points += has_value(&gcs[i], g) != 0;
        if (points == 0)
            continue;
        fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"", series_colors[g]);
        const char *sep = "";
        for (size_t i = 0; i < n; i++) {
            if (!has_value(&gcs[i], g))
                continue;
            fprintf(f, "%s%.1f,%.1f", sep, px(s, gcs[i].number), py(s, gcs[i].size[g] / 1e6));
            sep = " ";
        }
        fprintf(f, "\"/>\n");
        int y = TOP + 10 + 22 * legend_row++;
        fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"3\"/>\n", RIGHT + 20, y,
                RIGHT + 50, y, series_colors[g]);
        fprintf(f, "<text x=\"%d\" y=\"%d\" font-family=\"sans-serif\" font-size=\"13\" fill=\"#333\">%s</text>\n",
                RIGHT + 58, y + 4, series_names[g]);
    }
    if (legend_row == 0)
        fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-family=\"sans-serif\" font-size=\"14\" "
                   "fill=\"#777\">no GC heap statistics in this trace</text>\n",
                (LEFT + RIGHT) / 2, (TOP + BOTTOM) / 2);
}

int svg_write(const char *path, const char *title, const gclog_entry *gcs, size_t n)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    scale s = make_scale(gcs, n);
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" height=\"%d\" "
               "viewBox=\"0 0 %d %d\">\n",
            WIDTH, HEIGHT, WIDTH, HEIGHT);
    fprintf(f, "<title>");
    put_escaped(f, title);
    fprintf(f, "</title>\n<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n", WIDTH, HEIGHT);
    fprintf(f, "<text x=\"%d\" y=\"28\" text-anchor=\"middle\" font-family=\"sans-serif\" font-size=\"16\" "
               "fill=\"#111\">",
            WIDTH / 2);
    put_escaped(f, title);
    fprintf(f, "</text>\n");
    axes(f, &s);
    lines_and_legend(f, &s, gcs, n);
    fprintf(f, "</svg>\n");
    int failed = ferror(f);
    if (fclose(f) != 0 || failed) {
        if (!errno)
            errno = EIO;
        return -1;
    }
    return 0;
}
