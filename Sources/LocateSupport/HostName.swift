import Glibc

/// This machine's name (`gethostname`): the device a publisher speaks for when nothing else
/// names it (OwnTracks' `X-Limit-D` over HTTP).
package enum HostName {
    /// The name, its visible ASCII only (it goes in a header); `nil` when the system has none.
    package static var current: String? {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return nil }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let visible = String(name.unicodeScalars.filter { $0.value > 0x20 && $0.value < 0x7F }.map(Character.init))
        return visible.isEmpty ? nil : visible
    }
}
