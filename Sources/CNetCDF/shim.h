#ifndef CNETCDF_SHIM_H
#define CNETCDF_SHIM_H

/* libnetcdf (Debian's libnetcdf19, with the HDF5 it brings) is loaded with dlopen only to build
   the place index, when the cached one is missing or stale: it reads the country and state
   borders of gmt-dcw's dcw-gmt.nc (netCDF-4/HDF5). A run that only reads the index never loads
   it, so nothing is linked (the module map has no `link`), and <netcdf.h> is not included (its
   pkg-config flags are not needed for a few function types). These are the C types of the
   functions looked up with dlsym, as netcdf.h declares them (size_t for its dimension lengths). */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>

/* nc_open's read-only mode and the success status, as netcdf.h defines them. */
#define CNETCDF_NOWRITE 0
#define CNETCDF_NOERR 0

typedef int (*CNetCDF_open)(const char *path, int mode, int *ncid);
typedef int (*CNetCDF_close)(int ncid);
typedef int (*CNetCDF_inq_dimid)(int ncid, const char *name, int *dimid);
typedef int (*CNetCDF_inq_dimlen)(int ncid, int dimid, size_t *length);
typedef int (*CNetCDF_inq_varid)(int ncid, const char *name, int *varid);
typedef int (*CNetCDF_get_att_double)(int ncid, int varid, const char *name, double *value);
typedef int (*CNetCDF_get_var_ushort)(int ncid, int varid, unsigned short *values);
typedef const char *(*CNetCDF_strerror)(int status);

/* HDF5's error printer (hdf5 1.10, which libnetcdf19 brings): its settings are per thread in
   Debian's thread-safe build, and libnetcdf turns printing off only on the thread that first
   used it, so any other thread gets HDF5-DIAG traces on stderr for attributes netCDF-4 merely
   probes. H5E_DEFAULT is 0; the printer is a function pointer, kept opaque. */
#define CNETCDF_H5E_DEFAULT 0
typedef int (*CNetCDF_H5Eget_auto2)(int64_t stack, void **printer, void **data);
typedef int (*CNetCDF_H5Eset_auto2)(int64_t stack, void *printer, void *data);

/* The path of the shared object that holds `symbol`, or NULL (dladdr needs _GNU_SOURCE). */
static inline const char *CNetCDF_object_path(const void *symbol) {
    Dl_info information;
    return dladdr(symbol, &information) != 0 ? information.dli_fname : NULL;
}

#endif
