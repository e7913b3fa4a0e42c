/* The floor for `locate --once`: a minimal libgps client that does what locate does on the
   fast path, and nothing else. It connects, sends WATCH and ?POLL; in one write, cuts the first
   TPV out of gpsd's POLL reply (libgps does not parse POLL), unpacks it, and prints
   "lat lon". A benchmark peer for Scripts/bench, not product code.
   Usage: poll-once HOST PORT */
#include <gps.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
    static struct gps_data_t gps, fix;
    static char message[16384];
    if (argc != 3 || gps_open(argv[1], argv[2], &gps) != 0) return 69;
    gps_send(&gps, "%s", "?WATCH={\"enable\":true,\"json\":true};?POLL;\n");
    while (gps_waiting(&gps, 5000000)) {
        if (gps_read(&gps, message, sizeof message) < 0) break;
        if (strncmp(message, "{\"class\":\"POLL\"", 15) != 0) continue;
        char *tpv = strstr(message, "\"tpv\":[{");
        if (tpv == NULL) break;
        tpv += 7;
        int depth = 0;
        char *end = tpv;
        for (; *end; end++) {
            if (*end == '{') depth++;
            if (*end == '}' && --depth == 0) break;
        }
        end[1] = '\0';
        if (gps_unpack(tpv, &fix) != 0 || fix.fix.mode < MODE_2D || !isfinite(fix.fix.latitude)) break;
        printf("%.6f %.6f\n", fix.fix.latitude, fix.fix.longitude);
        gps_close(&gps);
        return 0;
    }
    gps_close(&gps);
    return 75;
}
