import Glibc

/// A shared object opened with `dlopen` when a command first needs it (libmosquitto, libsqlite3,
/// libnetcdf, libgeonames), so that a run that does not use it never loads it: the one loader
/// the libraries' C boundaries share. It is never closed: the libraries it opens (OpenSSL,
/// HDF5, GLib) register handlers that cannot be unloaded safely.
package struct DynamicLibrary: @unchecked Sendable {
    /// Why a library or one of its functions cannot be had, in words.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        package let description: String
    }

    /// The name it was opened by.
    package let soname: String
    private let handle: UnsafeMutableRawPointer

    /// The first of `sonames` that opens.
    /// - Parameter package: the Debian package to name when none does.
    /// - Throws: `Failure` saying what to install and what `dlerror` said of the first name.
    package init(_ sonames: [String], package: String) throws(Failure) {
        var firstError: String?
        for name in sonames {
            if let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) {
                (self.soname, self.handle) = (name, handle)
                return
            }
            let error = dlerror().map { String(cString: $0) } ?? "unknown error"
            firstError = firstError ?? error
        }
        throw Failure(description: "cannot load \(sonames.first ?? "a library") (install \(package)): \(firstError ?? "no name to load")")
    }

    /// The function `name`, as the C type `type` (the header's own, through `__typeof__`).
    /// - Throws: `Failure` when the library has no such symbol.
    package func symbol<Function>(_ name: String, as type: Function.Type) throws(Failure) -> Function {
        guard let address = dlsym(handle, name) else { throw Failure(description: "\(soname) has no \(name)") }
        return unsafeBitCast(address, to: type)
    }
}
