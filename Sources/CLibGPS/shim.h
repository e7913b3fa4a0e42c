#ifndef CLIBGPS_SHIM_H
#define CLIBGPS_SHIM_H

#include <gps.h>

/* gps_send is variadic, which Swift cannot call; the command is never used as the format. */
static inline int CLibGPS_send(struct gps_data_t *gps, const char *command) {
    return gps_send(gps, "%s", command);
}

/* One JSON object into gps_data_t: the parser gps_unpack calls in a loop over the objects of a
   line. That loop never ends when an object fails to parse partway, as it keeps its position: in
   libgps 3.22 a line such as {"class":"TPV","x":[{"class":"TPV"}]} hangs gps_unpack forever.
   gpsd sends one object per line, so locate calls the one-object parser once. libgps exports it
   (3.20 through 3.27), but declares it only in gps_json.h, which is not installed. */
extern int libgps_json_unpack(const char *buf, struct gps_data_t *gpsdata, const char **end);

/* gps_stream's flag type and third argument changed in gpsd 3.25 (void * -> const char *);
   calling it through here keeps the Swift call site the same on both sides of that change. */
static inline int CLibGPS_stream(struct gps_data_t *gps, unsigned int flags) {
    return gps_stream(gps, flags, NULL);
}

/* libgps defines its release as `const char *gpsd_version` (in os_compat.o), which gps.h does
   not declare. */
extern const char *gpsd_version;
static inline const char *CLibGPS_releaseVersion(void) {
    return gpsd_version;
}

#endif
