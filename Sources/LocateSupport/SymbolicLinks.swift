import Glibc

/// What a path names after one step of symbolic links: the link's target, made absolute against
/// the link's directory, or `nil` when the path is not a symbolic link.
package func symbolicLinkTarget(of path: String) -> String? {
    guard case .success(let target) = linkText(of: path), !target.isEmpty else { return nil }
    return target.hasPrefix("/") ? target : directory(of: path) + "/" + target
}

/// What the symbolic link `path` holds, as it is written, or the `errno` of `readlink`.
package func linkText(of path: String) -> Result<String, LinkError> {
    // A buffer from the stack, not zeroed: paths are read at every start, and a zeroed heap page
    // per component showed in a run's instruction count.
    withUnsafeTemporaryAllocation(of: CChar.self, capacity: 4096) { buffer in
        guard let start = buffer.baseAddress else { return .failure(LinkError(code: ENOMEM)) }
        let length = readlink(path, start, buffer.count)
        guard length >= 0 else { return .failure(LinkError(code: errno)) }
        return .success(String(decoding: UnsafeRawBufferPointer(start: start, count: length), as: UTF8.self))
    }
}

/// Why `readlink` failed: its `errno`.
package struct LinkError: Error {
    package let code: Int32
}

/// The directory part of `path` (`/` for a file at the root, `.` for a bare name).
package func directory(of path: String) -> String {
    // By bytes: a `/` is one byte in UTF-8 and never part of another character.
    guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
}

/// The last component of `path`.
package func fileName(of path: String) -> String {
    String(path[(path.utf8.lastIndex(of: UInt8(ascii: "/")).map(path.utf8.index(after:)) ?? path.startIndex)...])
}
