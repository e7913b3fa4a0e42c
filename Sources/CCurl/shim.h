#ifndef CCURL_SHIM_H
#define CCURL_SHIM_H
/* libcurl (Debian libcurl4 or libcurl3-gnutls, 7.88): the HTTP client of locate publish to an
   http(s):// URL (GPSLocationMQTT's Curl.swift). It is opened with dlopen when such a client
   starts, not linked, so that no other run loads it or its TLS library. The module map has no
   `link`; curl.h gives the types (the headers of libcurl4-openssl-dev or libcurl4-gnutls-dev),
   and these are the types of the functions looked up with dlsym (__typeof__: the header's own
   declarations, so they cannot drift). */
#include <curl/curl.h>

typedef __typeof__(&curl_easy_init) CCurl_easy_init;
typedef __typeof__(&curl_easy_cleanup) CCurl_easy_cleanup;
typedef __typeof__(&curl_easy_perform) CCurl_easy_perform;
typedef __typeof__(&curl_easy_strerror) CCurl_easy_strerror;
typedef __typeof__(&curl_slist_append) CCurl_slist_append;
typedef __typeof__(&curl_slist_free_all) CCurl_slist_free_all;
/* Variadic: Swift cannot call these, so the calls below make them from C, one for each type of
   the third argument. */
typedef CURLcode (*CCurl_easy_setopt)(CURL *, CURLoption, ...);
typedef CURLcode (*CCurl_easy_getinfo)(CURL *, CURLINFO, ...);

static inline CURLcode CCurl_setopt_long(CCurl_easy_setopt setopt, CURL *handle, CURLoption option, long value) {
    return setopt(handle, option, value);
}
static inline CURLcode CCurl_setopt_pointer(CCurl_easy_setopt setopt, CURL *handle, CURLoption option, const void *value) {
    return setopt(handle, option, value);
}
static inline CURLcode CCurl_setopt_write(CCurl_easy_setopt setopt, CURL *handle, curl_write_callback callback) {
    return setopt(handle, CURLOPT_WRITEFUNCTION, callback);
}
static inline CURLcode CCurl_setopt_progress(CCurl_easy_setopt setopt, CURL *handle, curl_xferinfo_callback callback) {
    return setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}
static inline CURLcode CCurl_getinfo_long(CCurl_easy_getinfo getinfo, CURL *handle, CURLINFO info, long *value) {
    return getinfo(handle, info, value);
}

#endif
