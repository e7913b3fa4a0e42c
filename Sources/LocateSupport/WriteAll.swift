import Glibc

/// Writes all of `bytes` to `descriptor`, going on after partial and interrupted writes: the one
/// write loop of the libraries and the command (`package`).
/// - Returns: `nil` when all of it was written, otherwise the `errno` of the failure.
@discardableResult
package func writeAll(_ bytes: ArraySlice<UInt8>, to descriptor: Int32) -> Int32? {
    var offset = 0
    while offset < bytes.count {
        let written = bytes.withUnsafeBytes { raw in
            // Not empty (offset < count), so it has an address.
            guard let base = raw.baseAddress else { return 0 }
            return write(descriptor, base + offset, raw.count - offset)
        }
        if written < 0 {
            if errno == EINTR { continue }
            return errno
        }
        offset += written
    }
    return nil
}
