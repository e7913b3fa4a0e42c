#ifndef CMOSQUITTO_SHIM_H
#define CMOSQUITTO_SHIM_H
/* libmosquitto (Debian libmosquitto1, 2.0.11): the MQTT client GPSLocationMQTT drives from a
   thread of its own (Mosquitto.swift). It is loaded with dlopen when a client is first made, not
   linked: libmosquitto brings libssl and libcrypto, whose loading and relocation would cost every
   run of locate (`--once` three times its own work) for the one command that publishes. So the
   module map has no `link`; mosquitto.h gives the types, and these are the types of the functions
   looked up with dlsym (__typeof__: the header's own declarations, so they cannot drift). mosquitto.h
   has no variadic functions; the protocol header gives the MQTT 5 property and reason-code names. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <mosquitto.h>
#include <mqtt_protocol.h>

typedef __typeof__(&mosquitto_lib_init) CMosquitto_lib_init;
typedef __typeof__(&mosquitto_strerror) CMosquitto_strerror;
typedef __typeof__(&mosquitto_reason_string) CMosquitto_reason_string;
typedef __typeof__(&mosquitto_connack_string) CMosquitto_connack_string;
typedef __typeof__(&mosquitto_new) CMosquitto_new;
typedef __typeof__(&mosquitto_user_data_set) CMosquitto_user_data_set;
typedef __typeof__(&mosquitto_destroy) CMosquitto_destroy;
typedef __typeof__(&mosquitto_connect_v5_callback_set) CMosquitto_connect_v5_callback_set;
typedef __typeof__(&mosquitto_publish_v5_callback_set) CMosquitto_publish_v5_callback_set;
typedef __typeof__(&mosquitto_int_option) CMosquitto_int_option;
typedef __typeof__(&mosquitto_max_inflight_messages_set) CMosquitto_max_inflight_messages_set;
typedef __typeof__(&mosquitto_username_pw_set) CMosquitto_username_pw_set;
typedef __typeof__(&mosquitto_tls_set) CMosquitto_tls_set;
typedef __typeof__(&mosquitto_will_set) CMosquitto_will_set;
typedef __typeof__(&mosquitto_connect_bind_async) CMosquitto_connect_bind_async;
typedef __typeof__(&mosquitto_connect_bind_v5) CMosquitto_connect_bind_v5;
typedef __typeof__(&mosquitto_publish) CMosquitto_publish;
typedef __typeof__(&mosquitto_disconnect) CMosquitto_disconnect;
typedef __typeof__(&mosquitto_loop_write) CMosquitto_loop_write;
typedef __typeof__(&mosquitto_socket) CMosquitto_socket;
typedef __typeof__(&mosquitto_want_write) CMosquitto_want_write;
typedef __typeof__(&mosquitto_loop_read) CMosquitto_loop_read;
typedef __typeof__(&mosquitto_loop_misc) CMosquitto_loop_misc;
/* The subscriber's (MQTTSubscription): a persistent session's subscription, its messages, and
   acknowledgements held until the loop writes them (mosquitto_threaded_set). */
typedef __typeof__(&mosquitto_subscribe) CMosquitto_subscribe;
typedef __typeof__(&mosquitto_message_callback_set) CMosquitto_message_callback_set;
typedef __typeof__(&mosquitto_subscribe_callback_set) CMosquitto_subscribe_callback_set;
typedef __typeof__(&mosquitto_threaded_set) CMosquitto_threaded_set;
typedef __typeof__(&mosquitto_property_add_int32) CMosquitto_property_add_int32;
typedef __typeof__(&mosquitto_property_free_all) CMosquitto_property_free_all;

#endif
