#ifndef CLIBGPS_SHIM_H
#define CLIBGPS_SHIM_H

#include <dlfcn.h>
#include <gps.h>

/* gps_send is variadic, which Swift cannot call; the command is never used as the format. */
static inline int CLibGPS_send(struct gps_data_t *gps, const char *command) {
    return gps_send(gps, "%s", command);
}

/* gps_stream's flag type and third argument changed in gpsd 3.25 (void * -> const char *);
   calling it through here keeps the Swift call site the same on both sides of that change. */
static inline int CLibGPS_stream(struct gps_data_t *gps, unsigned int flags) {
    return gps_stream(gps, flags, NULL);
}

/* libgps exports its release as `const char *gpsd_version`, which gps.h does not declare; it is
   looked up at run time so a libgps without it still links. NULL when it is missing. */
static inline const char *CLibGPS_releaseVersion(void) {
    const char *const *version = (const char *const *)dlsym(RTLD_DEFAULT, "gpsd_version");
    return version ? *version : NULL;
}

#endif
