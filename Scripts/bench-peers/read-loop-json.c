/* The like-for-like floor for `locate --follow --json`: gpsd's canonical client loop (gps_waiting,
   gps_read), printing for every TPV with a fix the record locate writes, with its 21 fields in
   locate's order, units and precision (unknown values as null), through stdio, until COUNT fixes.
   A benchmark peer for Scripts/bench, not product code.
   Usage: read-loop-json HOST PORT COUNT */
#include <gps.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static void number(const char *key, double value, int decimals) {
    if (isfinite(value)) printf(",\"%s\":%.*f", key, decimals, value);
    else printf(",\"%s\":null", key);
}

int main(int argc, char **argv) {
    static struct gps_data_t gps;
    if (argc != 4 || gps_open(argv[1], argv[2], &gps) != 0) return 69;
    long count = atol(argv[3]), printed = 0;
    gps_stream(&gps, WATCH_ENABLE | WATCH_JSON, NULL);
    while (printed < count && gps_waiting(&gps, 5000000)) {
        gps.set = 0;
        if (gps_read(&gps, NULL, 0) < 0) break;
        if (!((gps.set & MODE_SET) && gps.fix.mode >= MODE_2D && isfinite(gps.fix.latitude))) continue;
        struct timespec now;
        clock_gettime(CLOCK_REALTIME, &now);
        char time[40] = "null";
        if (gps.fix.time.tv_sec > 0) {
            struct tm tm;
            gmtime_r(&gps.fix.time.tv_sec, &tm);
            char day[24];
            strftime(day, sizeof day, "%Y-%m-%dT%H:%M:%S", &tm);
            snprintf(time, sizeof time, "\"%s.%03ldZ\"", day, gps.fix.time.tv_nsec / 1000000);
        }
        printf("{\"type\":\"fix\",\"time\":%s", time);
        number("lat", gps.fix.latitude, 7);
        number("lon", gps.fix.longitude, 7);
        number("alt_msl", gps.fix.altMSL, 1);
        number("alt_hae", gps.fix.altHAE, 1);
        number("h_acc", gps.fix.eph, 1);
        number("v_acc", gps.fix.epv, 1);
        number("speed", gps.fix.speed, 2);
        number("speed_acc", gps.fix.eps, 2);
        number("course", gps.fix.track, 1);
        number("course_acc", gps.fix.epd, 1);
        number("climb", gps.fix.climb, 2);
        printf(",\"mode\":\"%s\"", gps.fix.mode == MODE_3D ? "3d" : "2d");
        if (gps.satellites_used > 0) printf(",\"sats_used\":%d", gps.satellites_used);
        else printf(",\"sats_used\":null");
        printf(",\"device\":\"%s\",\"source\":\"gpsd\"", gps.dev.path[0] ? gps.dev.path : "");
        double age = (double)(now.tv_sec - gps.fix.time.tv_sec) + (now.tv_nsec - gps.fix.time.tv_nsec) / 1e9;
        number("age", age, 1);
        printf(",\"accuracy\":\"full\",\"reason\":null,\"timed_out\":false}\n");
        printed++;
    }
    gps_close(&gps);
    return printed == count ? 0 : 75;
}
