import Glibc

/// Read-only bytes that are either a file mapped into memory (so that only the pages a reader
/// touches are read from disk and count towards the process's memory) or a copy of an array,
/// read by offset with every read checked against the end: a damaged or hostile file gives
/// wrong numbers, never a crash. Shared by the libraries (`package`).
///
/// A mapped file must not shrink while mapped (a read past its new end would fault): map only
/// files in a directory that is the user's alone and that are replaced by renaming, never
/// rewritten in place (`DirectoryHandle.replace`), as the cache's are.
package final class MappedBytes: @unchecked Sendable {
    // @unchecked: the bytes are never written after init, and unmapped only in deinit.
    private let base: UnsafeRawPointer?
    private let isMapped: Bool
    /// The number of bytes.
    package let count: Int

    /// A copy of `bytes`.
    package init(_ bytes: [UInt8]) {
        let copy = UnsafeMutableRawPointer.allocate(byteCount: max(bytes.count, 1), alignment: 8)
        bytes.withUnsafeBytes { if let source = $0.baseAddress { copy.copyMemory(from: source, byteCount: bytes.count) } }
        base = UnsafeRawPointer(copy)
        isMapped = false
        count = bytes.count
    }

    private init(mapped: UnsafeRawPointer?, count: Int) {
        base = mapped
        isMapped = true
        self.count = count
    }

    /// The file `name` in `directory` mapped, checked as `TrustedFile` checks (never through a
    /// symbolic link), or `nil` when it does not exist.
    /// - Throws: `TrustedFile.Refusal` for a file that cannot be read, is not to be trusted, or
    ///   is larger than `limit`.
    package static func map(
        _ name: String, in directory: DirectoryHandle, owner: TrustedFile.Owner, limit: Int
    ) throws(TrustedFile.Refusal)
        -> MappedBytes?
    {
        let descriptor = directory.openForReading(name)
        if descriptor < 0 {
            if errno == ENOENT { return nil }
            if errno == ELOOP { throw TrustedFile.Refusal(description: "is a symbolic link where none may be") }
            throw TrustedFile.Refusal(description: "cannot read: " + String(cString: strerror(errno)))
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw TrustedFile.Refusal(description: "cannot read: " + String(cString: strerror(errno)))
        }
        try TrustedFile.check(status, owner: owner)
        guard status.st_size <= limit else { throw TrustedFile.Refusal(description: "is too large (over \(limit >> 10) KiB)") }
        let size = Int(status.st_size)
        guard size > 0 else { return MappedBytes([]) }
        let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0)
        guard let address, address != MAP_FAILED else {
            throw TrustedFile.Refusal(description: "cannot map: " + String(cString: strerror(errno)))
        }
        return MappedBytes(mapped: UnsafeRawPointer(address), count: size)
    }

    deinit {
        guard let base else { return }
        if isMapped {
            munmap(UnsafeMutableRawPointer(mutating: base), count)
        } else {
            base.deallocate()
        }
    }

    /// The little-endian 32-bit word at `offset`, or 0 when it is not inside.
    @inline(__always)
    package func word(_ offset: Int) -> Int {
        guard let base, offset >= 0, offset <= count - 4 else { return 0 }
        return Int(UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
    }

    /// The little-endian 16-bit word at `offset`, or 0 when it is not inside.
    @inline(__always)
    package func short(_ offset: Int) -> Int {
        guard let base, offset >= 0, offset <= count - 2 else { return 0 }
        return Int(UInt16(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt16.self)))
    }

    /// A copy of the bytes in `range`, clamped to the bytes there are.
    package func bytes(_ range: Range<Int>) -> [UInt8] {
        let lower = min(max(range.lowerBound, 0), count)
        let upper = min(max(range.upperBound, lower), count)
        guard let base, upper > lower else { return [] }
        return Array(UnsafeRawBufferPointer(start: base + lower, count: upper - lower))
    }
}
