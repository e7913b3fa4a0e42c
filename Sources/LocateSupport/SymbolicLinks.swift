import Glibc

/// What a path names after one step of symbolic links: the link's target, made absolute against
/// the link's directory, or `nil` when the path is not a symbolic link.
package func symbolicLinkTarget(of path: String) -> String? {
    var buffer = [CChar](repeating: 0, count: 4097)
    let length = readlink(path, &buffer, buffer.count - 1)
    guard length > 0 else { return nil }
    let target = String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return target.hasPrefix("/") ? target : directory(of: path) + "/" + target
}

/// The directory part of `path` (`/` for a file at the root, `.` for a bare name).
package func directory(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
}

/// The last component of `path`.
package func fileName(of path: String) -> String {
    String(path[(path.lastIndex(of: "/").map(path.index(after:)) ?? path.startIndex)...])
}
