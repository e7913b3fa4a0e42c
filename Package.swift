// swift-tools-version:6.0
import PackageDescription

/// Optimized in debug builds too (`-enable-testing` still holds, so tests import them as they
/// are): the end-to-end tests run the built `locate` thousands of times, serve to hundreds of
/// clients, a place index built from ten million border points and a state machine through a
/// hundred thousand interleavings. Unoptimized, the suite's CPU was 190-210 s, more than two
/// cores give in the 100 s it has.
let optimizedInDebug: [SwiftSetting] = [.unsafeFlags(["-O"], .when(configuration: .debug))]

let package = Package(
    name: "locate",
    products: [
        // Positions from gpsd with the user's permission: the manager, locations, live updates,
        // the authorization model and the protocol of where authorization comes from.
        .library(name: "GPSLocation", targets: ["GPSLocation"]),
        // The file-backed consent store: settings, policy, editor, watcher, fallback, last-fix cache.
        .library(name: "GPSLocationConsent", targets: ["GPSLocationConsent"]),
        // Places, offline: reverse and forward geocoding with localized names.
        .library(name: "GPSLocationPlaces", targets: ["GPSLocationPlaces"]),
        .executable(name: "locate", targets: ["locate"]),
    ],
    targets: [
        // C: libgps from Debian's libgps-dev, with the few shims Swift cannot do without.
        .systemLibrary(name: "CLibGPS", providers: [.apt(["libgps-dev"])]),

        // C: the types of libgeonames' functions, which GPSLocationPlaces opens with dlopen only to
        // build its place index (apt libgeonames-dev; nothing is linked, so a run that does not
        // geocode never loads GLib; see shim.h for why there is no pkg-config here).
        .systemLibrary(name: "CGeonames"),

        // C: libmosquitto from Debian's libmosquitto-dev, the MQTT client of `locate publish`.
        .systemLibrary(name: "CMosquitto", providers: [.apt(["libmosquitto-dev"])]),
        // C: the types of libcurl's functions, which GPSLocationMQTT opens with dlopen only for
        // `locate publish` to an http(s):// URL (apt libcurl4-gnutls-dev or libcurl4-openssl-dev for
        // the headers; nothing is linked, so no other run loads libcurl or its TLS library).
        .systemLibrary(name: "CCurl"),
        // C: the types of libnetcdf's functions, which GPSLocationPlaces opens with dlopen only to
        // read gmt-dcw's borders into its place index (apt libnetcdf-dev, or libnetcdf19; nothing
        // is linked, so a run that only reads the index never loads libnetcdf or HDF5).
        .systemLibrary(name: "CNetCDF"),
        // C: the types of libsqlite3's functions, which LocateStore opens with dlopen when a store is
        // first opened (apt libsqlite3-dev; nothing is linked, so a run that keeps nothing never loads it).
        .systemLibrary(name: "CSQLite"),
        // C: the types of sd-bus's functions (libsystemd), which GeoClueAgent opens with dlopen only for
        // `locate agent` (apt libsystemd-dev for the headers; nothing is linked, so no other run loads it).
        .systemLibrary(name: "CSDBus"),

        // Internal, not a product: the file, lock, thread, socket, process and text kit the
        // libraries and the command share, and the only Swift that touches POSIX besides the one
        // file per C library (LibGPS.swift, Geonames.swift, NetCDF.swift).
        .target(name: "LocateSupport", swiftSettings: optimizedInDebug),

        // Internal, not a product: the wire formats' keys, readers and writers, each format's
        // reader beside its writer (the locate record's key table, OwnTracks, Home Assistant, GPX,
        // NMEA 0183, gpsd's requests and reports, which JSON messages carry a position; a track's
        // input read a chunk at a time), on the kit's floor.
        .target(
            name: "LocateFormats", dependencies: ["LocateSupport"],
            swiftSettings: optimizedInDebug),

        // Internal, not a product: the user's store in SQLite (the outbox of what waits for a
        // destination), on the kit's floor; SQLite.swift is its one file of C.
        .target(name: "LocateStore", dependencies: ["CSQLite", "LocateSupport"], swiftSettings: optimizedInDebug),

        // The core: GPSLocationManager, Location, live updates, authorization; gpsd I/O kept internal.
        .target(name: "GPSLocation", dependencies: ["CLibGPS", "LocateSupport", "LocateFormats"], swiftSettings: optimizedInDebug),
        // Internal, not a product: other devices' positions from a broker's messages or a pipe of
        // them (data, like a replay: no gpsd, no permission), with a detector per device, for
        // `locate monitor|visits --by`.
        .target(
            name: "LocateFleet", dependencies: ["GPSLocation", "LocateFormats", "LocateStore", "LocateSupport"],
            swiftSettings: optimizedInDebug),
        // The consent store every host uses by default.
        .target(
            name: "GPSLocationConsent", dependencies: ["GPSLocation", "LocateSupport", "LocateStore"], swiftSettings: optimizedInDebug),
        // Places; a position-only client links none of it.
        .target(
            name: "GPSLocationPlaces", dependencies: ["GPSLocation", "CGeonames", "CNetCDF", "LocateSupport"],
            swiftSettings: optimizedInDebug),

        // MQTT: a client over libmosquitto (or libcurl, for an HTTP endpoint) that keeps a bounded queue through broker outages and
        // hands each message out only while its admission holds (internal, not a product).
        .target(
            name: "GPSLocationMQTT", dependencies: ["CMosquitto", "CCurl", "LocateSupport", "LocateStore"], swiftSettings: optimizedInDebug),

        // gpsd's protocol served to local programs, each through its own permission: the engine
        // of `locate serve` (its loop, clients' state machine behind a transport, peer
        // identification, access recorder), internal, not a product.
        .target(
            name: "GPSDService", dependencies: ["GPSLocation", "GPSLocationConsent", "LocateSupport", "LocateFormats"],
            swiftSettings: optimizedInDebug),

        // GeoClue's agent over D-Bus (sd-bus, on a thread of its own): the engine of `locate agent`,
        // internal, not a product.
        .target(
            name: "GeoClueAgent", dependencies: ["CSDBus", "GPSLocation", "GPSLocationConsent", "LocateSupport"],
            swiftSettings: optimizedInDebug),

        // The command: arguments, output formats, signals, exit statuses; over the libraries, the
        // fleet, the formats and the support kit.
        .executableTarget(
            name: "locate",
            dependencies: [
                "GPSLocation", "GPSLocationConsent", "GPSLocationPlaces", "GPSLocationMQTT", "GPSDService", "LocateFleet", "GeoClueAgent",
                "LocateSupport", "LocateFormats",
            ],
            swiftSettings: optimizedInDebug),

        // An example program of the libraries, as an app would use CoreLocation (built, not installed).
        .executableTarget(name: "WeatherAndRun", dependencies: ["GPSLocation", "GPSLocationConsent", "GPSLocationPlaces"]),

        // Tests
        .testTarget(name: "LocateSupportTests", dependencies: ["LocateSupport"]),
        .testTarget(name: "LocateFormatsTests", dependencies: ["LocateFormats", "LocateSupport"]),
        .testTarget(name: "LocateStoreTests", dependencies: ["LocateStore", "LocateSupport"]),
        .testTarget(
            name: "GPSDServiceTests", dependencies: ["GPSDService", "GPSLocation", "LocateSupport", "LocateFormats", "HostileInput"],
            swiftSettings: optimizedInDebug),
        .testTarget(name: "GeoClueAgentTests", dependencies: ["GeoClueAgent", "GPSLocation", "GPSLocationConsent"]),
        .testTarget(name: "GPSLocationTests", dependencies: ["GPSLocation", "LocateSupport", "HostileInput", "AuthorizationFixtures"]),
        .testTarget(name: "LocateFleetTests", dependencies: ["LocateFleet", "GPSLocation"]),
        .testTarget(name: "GPSLocationConsentTests", dependencies: ["GPSLocationConsent", "LocateSupport", "HostileInput"]),
        .testTarget(
            name: "GPSLocationPlacesTests", dependencies: ["GPSLocationPlaces", "LocateSupport", "HostileInput", "PlaceIndexCache"],
            swiftSettings: optimizedInDebug),
        .testTarget(name: "LocateTests", dependencies: ["locate", "GPSLocation", "GPSLocationConsent", "LocateSupport", "HostileInput"]),
        .testTarget(
            name: "LocateEndToEndTests",
            dependencies: [
                "locate", "GPSLocation", "GPSLocationMQTT", "GPSLocationPlaces", "GeoClueAgent", "LibraryProbe", "HostileInput",
                "AuthorizationFixtures", "PlaceIndexCache",
            ]),
        // Seeded mutations of valid inputs, shared by the hostile-input tests (not a product).
        .target(name: "HostileInput", path: "Tests/HostileInput"),
        // An authorization source held in memory, for the library's and the app cases' tests (not a product).
        .target(name: "AuthorizationFixtures", dependencies: ["GPSLocation"], path: "Tests/AuthorizationFixtures"),
        // The place index the places tests and the end-to-end tests share, built once (not a product).
        .target(name: "PlaceIndexCache", dependencies: ["GPSLocationPlaces"], path: "Tests/PlaceIndexCache"),
        // A plain host program of the library, for the end-to-end tests (not a product).
        .executableTarget(name: "LibraryProbe", dependencies: ["GPSLocation"], path: "Tests/LibraryProbe"),
    ],
    swiftLanguageModes: [.v6]
)

for target in package.targets where target.type != .system {
    target.swiftSettings =
        (target.swiftSettings ?? []) + [
            .enableUpcomingFeature("InternalImportsByDefault"),
            .enableUpcomingFeature("ExistentialAny"),
        ]
}
