internal import CNetCDF
import GPSLocation
import Glibc
import LocateSupport

// The libnetcdf boundary: the only Swift file that touches libnetcdf. It is opened with dlopen,
// only to build the place index (PlaceIndexBuilder, through BorderData) when the cached one is
// missing or was built from other data; lookups never load it. Debian builds it (and HDF5) without
// thread safety: it is only read under PlaceIndex.load's lock, one thread at a time.

/// Reading packed 16-bit coordinate arrays out of a netCDF file (gmt-dcw's layout).
enum NetCDFLibrary {
    /// The shared object's names: Debian bookworm's libnetcdf19, then the development link.
    static let sonames = ["libnetcdf.so.19", "libnetcdf.so"]

    /// One variable pair of the file: `<tag>_lon` and `<tag>_lat`, `ushort`s over
    /// `<tag>_length`, each with its `min` and `scale` attributes.
    struct PackedTag: Sendable {
        var longitudeMinimum: Double
        var longitudeScale: Double
        var latitudeMinimum: Double
        var latitudeScale: Double
        var longitudes: [UInt16]
        var latitudes: [UInt16]
    }

    /// The packed arrays of each of `tags` in the file at `path` (a tag the file does not have
    /// is left out), and the path of the library that read them.
    /// - Throws: `GPSLocationError.placeDataUnavailable` when libnetcdf cannot be loaded or the
    ///   file cannot be opened or read.
    static func readTags(_ tags: [String], path: String) throws(GPSLocationError) -> (tags: [String: PackedTag], libraryPath: String) {
        let shared: DynamicLibrary
        do throws(DynamicLibrary.Failure) {
            shared = try DynamicLibrary(sonames, package: "libnetcdf19")
        } catch {
            throw .placeDataUnavailable(reason: error.description)
        }
        let name = shared.soname
        func symbol<Function>(_ symbolName: String, as type: Function.Type) throws(GPSLocationError) -> Function {
            do throws(DynamicLibrary.Failure) {
                return try shared.symbol(symbolName, as: type)
            } catch {
                throw .placeDataUnavailable(reason: error.description)
            }
        }
        let open = try symbol("nc_open", as: CNetCDF_open.self)
        let close = try symbol("nc_close", as: CNetCDF_close.self)
        let dimensionID = try symbol("nc_inq_dimid", as: CNetCDF_inq_dimid.self)
        let dimensionLength = try symbol("nc_inq_dimlen", as: CNetCDF_inq_dimlen.self)
        let variableID = try symbol("nc_inq_varid", as: CNetCDF_inq_varid.self)
        let attribute = try symbol("nc_get_att_double", as: CNetCDF_get_att_double.self)
        let values = try symbol("nc_get_var_ushort", as: CNetCDF_get_var_ushort.self)
        let errorText = try symbol("nc_strerror", as: CNetCDF_strerror.self)
        let libraryPath = CNetCDF_object_path(unsafeBitCast(open, to: UnsafeRawPointer.self)).map { String(cString: $0) } ?? name
        func failure(_ what: String, _ status: Int32) -> GPSLocationError {
            .placeDataUnavailable(reason: "\(path): \(what): " + (errorText(status).map { String(cString: $0) } ?? "error \(status)"))
        }

        // The library never prints: HDF5's printer is off on this thread while the file is read,
        // and put back as it was.
        let getPrinter = try symbol("H5Eget_auto2", as: CNetCDF_H5Eget_auto2.self)
        let setPrinter = try symbol("H5Eset_auto2", as: CNetCDF_H5Eset_auto2.self)
        var printer: UnsafeMutableRawPointer?
        var printerData: UnsafeMutableRawPointer?
        let saved = getPrinter(Int64(CNETCDF_H5E_DEFAULT), &printer, &printerData) >= 0
        _ = setPrinter(Int64(CNETCDF_H5E_DEFAULT), nil, nil)
        defer { if saved { _ = setPrinter(Int64(CNETCDF_H5E_DEFAULT), printer, printerData) } }

        var file: Int32 = 0
        let opened = open(path, CNETCDF_NOWRITE, &file)
        guard opened == CNETCDF_NOERR else { throw failure("cannot open", opened) }
        defer { _ = close(file) }
        var found: [String: PackedTag] = [:]
        for tag in tags {
            var dimension: Int32 = 0
            var length = 0
            var longitude: Int32 = 0
            var latitude: Int32 = 0
            guard dimensionID(file, tag + "_length", &dimension) == CNETCDF_NOERR,
                dimensionLength(file, dimension, &length) == CNETCDF_NOERR,
                variableID(file, tag + "_lon", &longitude) == CNETCDF_NOERR, variableID(file, tag + "_lat", &latitude) == CNETCDF_NOERR
            else { continue }
            guard (0...50_000_000).contains(length) else { throw .placeDataUnavailable(reason: "\(path): \(tag) has \(length) points") }
            var packed = PackedTag(
                longitudeMinimum: 0, longitudeScale: 0, latitudeMinimum: 0, latitudeScale: 0,
                longitudes: [UInt16](repeating: 0, count: length), latitudes: [UInt16](repeating: 0, count: length))
            for (variable, field, value) in [
                (longitude, "min", \PackedTag.longitudeMinimum), (longitude, "scale", \.longitudeScale),
                (latitude, "min", \.latitudeMinimum), (latitude, "scale", \.latitudeScale),
            ] {
                var number = 0.0
                let status = attribute(file, variable, field, &number)
                guard status == CNETCDF_NOERR else { throw failure("\(tag) \(field)", status) }
                packed[keyPath: value] = number
            }
            for (variable, array) in [(longitude, \PackedTag.longitudes), (latitude, \.latitudes)] where length > 0 {
                let status = packed[keyPath: array].withUnsafeMutableBufferPointer { values(file, variable, $0.baseAddress) }
                guard status == CNETCDF_NOERR else { throw failure("\(tag) values", status) }
            }
            found[tag] = packed
        }
        return (found, libraryPath)
    }
}
