/* A minimal libgps client, for the end-to-end tests of `locate serve` (compiled by the test):
 *
 *   libgps-client HOST PORT N     prints the first N fixes as "FIX lat lon" and each sky view
 *                                 libgps read as "SKY visible used", exits 0; 3 after 10 s
 *                                 without a message, 2 when it cannot connect.
 *
 * It does what every libgps program does: gps_open, gps_stream(WATCH_ENABLE | WATCH_JSON),
 * gps_waiting, gps_read. A report is classified by its own line, since gps_data_t.set keeps
 * MODE_SET across the SKY and WATCH reports that follow a TPV. */
#include <gps.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    struct gps_data_t data;
    char line[8192];
    int want = argc > 3 ? atoi(argv[3]) : 3, got = 0;
    if (argc < 3 || gps_open(argv[1], argv[2], &data) != 0) return 2;
    gps_stream(&data, WATCH_ENABLE | WATCH_JSON, NULL);
    while (got < want) {
        if (!gps_waiting(&data, 10000000)) return 3;
        if (gps_read(&data, line, sizeof line) == -1) return 4;
        if (strstr(line, "\"class\":\"TPV\"") && data.fix.mode >= MODE_2D && isfinite(data.fix.latitude)) {
            printf("FIX %.9f %.9f\n", data.fix.latitude, data.fix.longitude);
            got++;
        } else if (strstr(line, "\"class\":\"SKY\"")) {
            printf("SKY %d %d\n", data.satellites_visible, data.satellites_used);
        }
    }
    gps_close(&data);
    return 0;
}
