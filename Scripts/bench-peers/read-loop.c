/* The floor for `locate --follow`: gpsd's canonical client loop (gps_waiting, gps_read), printing
   "lat lon" for every TPV with a fix through stdio, until COUNT fixes. A benchmark peer for
   Scripts/bench, not product code.
   Usage: read-loop HOST PORT COUNT */
#include <gps.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    static struct gps_data_t gps;
    if (argc != 4 || gps_open(argv[1], argv[2], &gps) != 0) return 69;
    long count = atol(argv[3]), printed = 0;
    gps_stream(&gps, WATCH_ENABLE | WATCH_JSON, NULL);
    while (printed < count && gps_waiting(&gps, 5000000)) {
        gps.set = 0;
        if (gps_read(&gps, NULL, 0) < 0) break;
        if ((gps.set & MODE_SET) && gps.fix.mode >= MODE_2D && isfinite(gps.fix.latitude)) {
            printf("%.7f %.7f\n", gps.fix.latitude, gps.fix.longitude);
            printed++;
        }
    }
    gps_close(&gps);
    return printed == count ? 0 : 75;
}
