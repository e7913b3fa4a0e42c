// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "locate",
    products: [
        .library(name: "GPSLocation", targets: ["GPSLocation"]),
        .executable(name: "locate", targets: ["locate"]),
    ],
    targets: [
        // C: libgps from Debian's libgps-dev, with the few shims Swift cannot do without.
        .systemLibrary(name: "CLibGPS", pkgConfig: "libgps", providers: [.apt(["libgps-dev"])]),

        // C: the types of libgeonames' functions, which GPSLocation opens with dlopen only to build
        // its place index (apt libgeonames-dev; nothing is linked, so a run that does not
        // geocode never loads GLib; see shim.h for why there is no pkg-config here).
        .systemLibrary(name: "CGeonames"),

        // The library: values, GPSLocationManager, places, gpsd I/O kept internal.
        .target(name: "GPSLocation", dependencies: ["CLibGPS", "CGeonames"]),

        // The command: arguments, output formats, signals, exit statuses.
        .executableTarget(name: "locate", dependencies: ["GPSLocation"]),

        // An example program of the library, as an app would use CoreLocation (built, not installed).
        .executableTarget(name: "WeatherAndRun", dependencies: ["GPSLocation"]),

        // Tests
        .testTarget(name: "GPSLocationTests", dependencies: ["GPSLocation", "HostileInput"]),
        .testTarget(name: "LocateTests", dependencies: ["locate", "GPSLocation", "HostileInput"]),
        .testTarget(name: "LocateEndToEndTests", dependencies: ["locate", "LibraryProbe", "HostileInput"]),
        // Seeded mutations of valid inputs, shared by the hostile-input tests (not a product).
        .target(name: "HostileInput", path: "Tests/HostileInput"),
        // A plain host program of the library, for the end-to-end tests (not a product).
        .executableTarget(name: "LibraryProbe", dependencies: ["GPSLocation"], path: "Tests/LibraryProbe"),
    ],
    swiftLanguageModes: [.v6]
)

for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + [
        .enableUpcomingFeature("InternalImportsByDefault"),
        .enableUpcomingFeature("ExistentialAny"),
    ]
}
