#ifndef CGEONAMES_SHIM_H
#define CGEONAMES_SHIM_H

/* libgeonames (and the GLib it brings) is loaded with dlopen only when a place is asked for and
   the place index in the cache is missing or stale: a run that does not geocode never loads it,
   and a lookup reads the index, not libgeonames. So nothing is linked (the module map has no
   `link`), and <geonames.h> is not included: it pulls in GLib's headers, whose pkg-config flags
   SwiftPM warns about. These are the C types of the functions looked up with dlsym, as
   geonames.h and GLib declare them (gint = int, guint32 = uint32_t, gdouble = double,
   gsize = size_t, a GeonamesCity and a GVariant are opaque pointers). */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>

typedef struct CGeonames_Variant CGeonames_Variant;

typedef int (*CGeonames_get_n_cities)(void);
typedef CGeonames_Variant *(*CGeonames_get_city)(int index);
typedef void (*CGeonames_city_free)(CGeonames_Variant *city);
typedef const char *(*CGeonames_variant_type_string)(CGeonames_Variant *value);
typedef CGeonames_Variant *(*CGeonames_variant_child)(CGeonames_Variant *value, size_t index);
typedef const char *(*CGeonames_variant_string)(CGeonames_Variant *value, size_t *length);
typedef uint32_t (*CGeonames_variant_uint32)(CGeonames_Variant *value);
typedef double (*CGeonames_variant_double)(CGeonames_Variant *value);
typedef void (*CGeonames_variant_unref)(CGeonames_Variant *value);

/* The path of the shared object that holds `symbol`, or NULL (dladdr needs _GNU_SOURCE). */
static inline const char *CGeonames_object_path(const void *symbol) {
    Dl_info information;
    return dladdr(symbol, &information) != 0 ? information.dli_fname : NULL;
}

#endif
