#ifndef CSDBUS_SHIM_H
#define CSDBUS_SHIM_H
/* sd-bus, libsystemd's D-Bus client (Debian libsystemd0, 252): the bus of locate agent, GeoClue's
   agent (GeoClueAgent's SDBus.swift). It is opened with dlopen when the agent starts, not linked,
   so that no other run loads it. The module map has no `link`; sd-bus.h (libsystemd-dev) gives
   the types, and these are the types of the functions looked up with dlsym (__typeof__: the
   header's own declarations, so they cannot drift). */
#include <systemd/sd-bus.h>
#include <stdlib.h>

typedef __typeof__(&sd_bus_open_system) CSDBus_open_system;
typedef __typeof__(&sd_bus_new) CSDBus_new;
typedef __typeof__(&sd_bus_set_address) CSDBus_set_address;
typedef __typeof__(&sd_bus_set_bus_client) CSDBus_set_bus_client;
typedef __typeof__(&sd_bus_start) CSDBus_start;
typedef __typeof__(&sd_bus_flush_close_unref) CSDBus_flush_close_unref;
typedef __typeof__(&sd_bus_get_fd) CSDBus_get_fd;
typedef __typeof__(&sd_bus_get_events) CSDBus_get_events;
typedef __typeof__(&sd_bus_get_timeout) CSDBus_get_timeout;
typedef __typeof__(&sd_bus_process) CSDBus_process;
typedef __typeof__(&sd_bus_get_unique_name) CSDBus_get_unique_name;
typedef __typeof__(&sd_bus_add_object_vtable) CSDBus_add_object_vtable;
typedef __typeof__(&sd_bus_add_match) CSDBus_add_match;
typedef __typeof__(&sd_bus_slot_unref) CSDBus_slot_unref;
typedef __typeof__(&sd_bus_message_ref) CSDBus_message_ref;
typedef __typeof__(&sd_bus_message_unref) CSDBus_message_unref;
typedef __typeof__(&sd_bus_message_get_sender) CSDBus_message_get_sender;
typedef __typeof__(&sd_bus_message_get_error) CSDBus_message_get_error;
typedef __typeof__(&sd_bus_message_is_method_error) CSDBus_message_is_method_error;

/* Variadic: Swift cannot call these, so the calls below make them from C, one for each D-Bus
   signature the agent reads or writes. */
typedef int (*CSDBus_message_read)(sd_bus_message *, const char *, ...);
typedef int (*CSDBus_message_append)(sd_bus_message *, const char *, ...);
typedef int (*CSDBus_reply_method_return)(sd_bus_message *, const char *, ...);
typedef int (*CSDBus_call_method_async)(sd_bus *, sd_bus_slot **, const char *, const char *, const char *, const char *,
                                        sd_bus_message_handler_t, void *, const char *, ...);
typedef int (*CSDBus_emit_properties_changed)(sd_bus *, const char *, const char *, const char *, ...);

/* "su": a string and a uint32 (AuthorizeApp's arguments). */
static inline int CSDBus_read_string_uint32(CSDBus_message_read read, sd_bus_message *message, const char **text, uint32_t *number) {
    return read(message, "su", text, number);
}
/* "sss": three strings (NameOwnerChanged's name, old owner and new owner). */
static inline int CSDBus_read_three_strings(CSDBus_message_read read, sd_bus_message *message, const char **first, const char **second,
                                            const char **third) {
    return read(message, "sss", first, second, third);
}
/* "u": a uint32 (a property's value). */
static inline int CSDBus_append_uint32(CSDBus_message_append append, sd_bus_message *message, uint32_t number) {
    return append(message, "u", number);
}
/* "bu": a boolean and a uint32 (AuthorizeApp's answer). */
static inline int CSDBus_reply_bool_uint32(CSDBus_reply_method_return reply, sd_bus_message *call, int flag, uint32_t number) {
    return reply(call, "bu", flag, number);
}
/* A call with one string argument, its reply handed to `callback`. */
static inline int CSDBus_call_string_async(CSDBus_call_method_async call, sd_bus *bus, sd_bus_slot **slot, const char *destination,
                                           const char *path, const char *interface, const char *member,
                                           sd_bus_message_handler_t callback, void *userdata, const char *argument) {
    return call(bus, slot, destination, path, interface, member, callback, userdata, "s", argument);
}
/* PropertiesChanged for one property, its value included (the property emits changes). */
static inline int CSDBus_emit_property_changed(CSDBus_emit_properties_changed emit, sd_bus *bus, const char *path,
                                               const char *interface, const char *property) {
    return emit(bus, path, interface, property, (const char *)NULL);
}

/* An object's vtable of one method and one read-only property that emits its changes, as
   sd-bus's macros build it, in memory of its own that stays until freed (sd-bus keeps pointing at
   it while the object is exported). The strings must live as long: the caller passes literals;
   `names` is the method's argument names then its result's, each ended by a NUL. The start and
   the method are spelled out: SD_BUS_VTABLE_START names the symbol sd_bus_object_vtable_format,
   which nothing here links (`format` is it, looked up with dlsym), and the method's macro pastes
   its names together as literals. The method may be called by any peer the bus lets through
   (UNPRIVILEGED: sd-bus would otherwise want CAP_SYS_ADMIN of GeoClue's user): its handler checks
   the sender itself. */
static inline sd_bus_vtable *CSDBus_method_and_property_vtable(const unsigned *format, const char *method, const char *signature,
                                                                const char *result, const char *names,
                                                                sd_bus_message_handler_t handler, const char *property,
                                                                const char *type, sd_bus_property_get_t getter) {
    sd_bus_vtable *table = calloc(4, sizeof(sd_bus_vtable));
    if (table == NULL) return NULL;
    const sd_bus_vtable entries[4] = {
        {.type = _SD_BUS_VTABLE_START, .flags = 0,
         .x = {.start = {.element_size = sizeof(sd_bus_vtable), .features = _SD_BUS_VTABLE_PARAM_NAMES,
                         .vtable_format_reference = format}}},
        {.type = _SD_BUS_VTABLE_METHOD, .flags = SD_BUS_VTABLE_UNPRIVILEGED,
         .x = {.method = {.member = method, .signature = signature, .result = result, .handler = handler, .offset = 0,
                          .names = names}}},
        SD_BUS_PROPERTY(property, type, getter, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
        SD_BUS_VTABLE_END,
    };
    for (int i = 0; i < 4; i++) table[i] = entries[i];
    return table;
}

#endif
