#ifndef CMOSQUITTO_SHIM_H
#define CMOSQUITTO_SHIM_H
/* libmosquitto (Debian libmosquitto-dev, 2.0.11): the MQTT client GPSLocationMQTT drives from a
   thread of its own (Mosquitto.swift). mosquitto.h has no variadic functions; the protocol header
   gives the MQTT 5 property and reason-code names. */
#include <mosquitto.h>
#include <mqtt_protocol.h>
#endif
