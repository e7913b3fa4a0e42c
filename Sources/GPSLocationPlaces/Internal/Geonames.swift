internal import CGeonames
import GPSLocation
import Glibc
import LocateSupport

// The libgeonames boundary: the only Swift file that touches libgeonames and the GLib values it
// returns. libgeonames is opened with dlopen, only to build the place index (PlaceIndexBuilder) when
// the cached one is missing or was built from other data; lookups never load it. (The
// translations of its names are read from its gettext catalogues by GettextCatalog, in Swift.)
// It loads its table lazily, without a lock: it is only read under PlaceIndex.load's lock.

/// Reading every place out of libgeonames.
enum GeonamesLibrary {
    /// The shared object's name (Debian's libgeonames0).
    static let soname = "libgeonames.so.0"

    /// Every place libgeonames has, and the path of the library file they came from.
    /// - Throws: `GPSLocationError.placeDataUnavailable` when the library cannot be opened or its places are
    ///   not in the layout this build knows (`(sssssssudd)`: id, name, first-level division code
    ///   and name, country code and name, time zone, population, latitude, longitude).
    static func readPlaces() throws(GPSLocationError) -> (places: [PlaceRecord], libraryPath: String) {
        let shared: DynamicLibrary
        do throws(DynamicLibrary.Failure) {
            shared = try DynamicLibrary([soname], package: "libgeonames0")
        } catch {
            throw .placeDataUnavailable(reason: error.description)
        }
        func symbol<Function>(_ name: String, as type: Function.Type) throws(GPSLocationError) -> Function {
            do throws(DynamicLibrary.Failure) {
                return try shared.symbol(name, as: type)
            } catch {
                throw .placeDataUnavailable(reason: error.description)
            }
        }
        let count = try symbol("geonames_get_n_cities", as: CGeonames_get_n_cities.self)
        let city = try symbol("geonames_get_city", as: CGeonames_get_city.self)
        let free = try symbol("geonames_city_free", as: CGeonames_city_free.self)
        let typeString = try symbol("g_variant_get_type_string", as: CGeonames_variant_type_string.self)
        let child = try symbol("g_variant_get_child_value", as: CGeonames_variant_child.self)
        let string = try symbol("g_variant_get_string", as: CGeonames_variant_string.self)
        let uint32 = try symbol("g_variant_get_uint32", as: CGeonames_variant_uint32.self)
        let double = try symbol("g_variant_get_double", as: CGeonames_variant_double.self)
        let unref = try symbol("g_variant_unref", as: CGeonames_variant_unref.self)

        let libraryPath = CGeonames_object_path(unsafeBitCast(count, to: UnsafeRawPointer.self)).map { String(cString: $0) } ?? soname

        let total = Int(count())
        guard (0...1_000_000).contains(total) else { throw .placeDataUnavailable(reason: "\(soname) reports \(total) places") }
        var places: [PlaceRecord] = []
        places.reserveCapacity(total)
        for index in 0..<total {
            guard let variant = city(Int32(index)) else { continue }
            defer { free(variant) }
            guard let type = typeString(variant), String(cString: type) == "(sssssssudd)" else {
                throw .placeDataUnavailable(reason: "\(soname) keeps its places in a layout this build does not know")
            }
            /// The child at `position` read by `read`, or `empty` when there is none (a layout
            /// checked above always has one).
            func field<Value>(_ position: Int, _ empty: Value, _ read: (OpaquePointer) -> Value) -> Value {
                guard let value = child(variant, position) else { return empty }
                defer { unref(value) }
                return read(value)
            }
            func text(_ position: Int) -> String {
                field(position, "") { value in string(value, nil).map { String(cString: $0) } ?? "" }
            }
            places.append(
                PlaceRecord(
                    id: text(0), name: text(1), divisionCode: text(2), division: text(3), divisionISOName: "",
                    countryCode: text(4), country: text(5), countryISOName: "", timeZone: text(6),
                    population: field(7, 0) { uint32($0) }, latitude: field(8, .nan) { double($0) },
                    longitude: field(9, .nan) { double($0) }))
        }
        return (places, libraryPath)
    }
}
