import Glibc

/// Read-only bytes that are either an open file, read where asked (positioned reads: only what a
/// reader asks for is copied in, so a large file costs the process no memory for the parts it
/// does not read), a file mapped read-only (the pages a reader touches are read in, and shared
/// with every process that maps the same file), or a copy of an array, with every read checked
/// against the end: a damaged or hostile file gives wrong numbers or zeros, never a crash.
/// Shared by the libraries (`package`).
///
/// A mapped file must not shrink while it is mapped (a read past its new end would be a
/// `SIGBUS`): map only a file that is replaced by renaming a new one onto it, never rewritten
/// in place, in a directory no one else can write, as the cache's files are.
package final class FileBytes: @unchecked Sendable {
    // @unchecked: the bytes are never written after init; pread has no shared file offset.
    @usableFromInline let memory: UnsafeMutableRawPointer?
    private let descriptor: Int32
    /// Whether `memory` is a mapping (unmapped at the end) rather than an allocation.
    private let isMapped: Bool
    /// The number of bytes.
    package let count: Int

    /// A copy of `bytes`.
    package init(_ bytes: [UInt8]) {
        let copy = UnsafeMutableRawPointer.allocate(byteCount: max(bytes.count, 1), alignment: 8)
        bytes.withUnsafeBytes { if let source = $0.baseAddress { copy.copyMemory(from: source, byteCount: bytes.count) } }
        memory = copy
        descriptor = -1
        isMapped = false
        count = bytes.count
    }

    private init(descriptor: Int32, count: Int) {
        memory = nil
        self.descriptor = descriptor
        isMapped = false
        self.count = count
    }

    private init(mapping: UnsafeMutableRawPointer, count: Int) {
        memory = mapping
        descriptor = -1
        isMapped = true
        self.count = count
    }

    /// The file `name` in `directory`, kept open, checked as `TrustedFile` checks (never through
    /// a symbolic link), or `nil` when it does not exist.
    /// - Throws: `TrustedFile.Refusal` for a file that cannot be read, is not to be trusted, or
    ///   is larger than `limit`.
    package static func open(
        _ name: String, in directory: DirectoryHandle, owner: TrustedFile.Owner, limit: Int
    ) throws(TrustedFile.Refusal)
        -> FileBytes?
    {
        let descriptor = directory.openForReading(name)
        if descriptor < 0 {
            if errno == ENOENT { return nil }
            if errno == ELOOP { throw TrustedFile.Refusal(description: "is a symbolic link where none may be") }
            throw TrustedFile.Refusal(description: "cannot read: " + String(cString: strerror(errno)))
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            close(descriptor)
            throw TrustedFile.Refusal(description: "cannot read: " + String(cString: strerror(errno)))
        }
        do throws(TrustedFile.Refusal) {
            try TrustedFile.check(status, owner: owner)
        } catch {
            close(descriptor)
            throw error
        }
        guard status.st_size <= limit else {
            close(descriptor)
            throw TrustedFile.Refusal(description: "is too large (over \(limit >> 10) KiB)")
        }
        return FileBytes(descriptor: descriptor, count: Int(status.st_size))
    }

    /// The first `count` bytes of this open file, mapped read-only, or `nil` when these bytes
    /// are not an open file (a copy is read in place already) or cannot be mapped. For a part
    /// that is read often and all over (the kernel may map a whole large folio of the page cache
    /// at a time, so a part that is read sparsely is better read where asked).
    package func mappedPrefix(_ count: Int) -> FileBytes? {
        guard descriptor >= 0, count > 0, count <= self.count,
            let mapping = mmap(nil, count, PROT_READ, MAP_PRIVATE, descriptor, 0), mapping != MAP_FAILED
        else { return nil }
        return FileBytes(mapping: mapping, count: count)
    }

    deinit {
        if let memory { if isMapped { munmap(memory, count) } else { memory.deallocate() } }
        if descriptor >= 0 { close(descriptor) }
    }

    /// The little-endian 32-bit word at `offset`, or 0 when it is not inside.
    @inlinable package func word(_ offset: Int) -> Int {
        guard offset >= 0, offset <= count - 4 else { return 0 }
        if let memory { return Int(UInt32(littleEndian: memory.loadUnaligned(fromByteOffset: offset, as: UInt32.self))) }
        return readWord(offset, size: 4)
    }

    /// The little-endian 16-bit word at `offset`, or 0 when it is not inside.
    /// The little-endian float at `offset`; 0 outside the file.
    @inlinable package func float(_ offset: Int) -> Float {
        guard offset >= 0, offset <= count - 4 else { return 0 }
        if let memory { return Float(bitPattern: UInt32(littleEndian: memory.loadUnaligned(fromByteOffset: offset, as: UInt32.self))) }
        return Float(bitPattern: UInt32(truncatingIfNeeded: readWord(offset, size: 4)))
    }

    @inlinable package func short(_ offset: Int) -> Int {
        guard offset >= 0, offset <= count - 2 else { return 0 }
        if let memory { return Int(UInt16(littleEndian: memory.loadUnaligned(fromByteOffset: offset, as: UInt16.self))) }
        return readWord(offset, size: 2)
    }

    /// The little-endian word of `size` (2 or 4) bytes at `offset` of the open file, or 0 when
    /// it cannot be read.
    @usableFromInline func readWord(_ offset: Int, size: Int) -> Int {
        var value: UInt32 = 0
        guard read(into: &value, size, at: offset) else { return 0 }
        return Int(UInt32(littleEndian: value))
    }

    /// A copy of the bytes in `range`, clamped to the bytes there are (zeros where a shrunk
    /// file has none).
    package func bytes(_ range: Range<Int>) -> [UInt8] {
        let lower = min(max(range.lowerBound, 0), count)
        let upper = min(max(range.upperBound, lower), count)
        guard upper > lower else { return [] }
        if let memory { return Array(UnsafeRawBufferPointer(start: memory + lower, count: upper - lower)) }
        var bytes = [UInt8](repeating: 0, count: upper - lower)
        _ = bytes.withUnsafeMutableBytes { buffer in buffer.baseAddress.map { read(into: $0, buffer.count, at: lower) } }
        return bytes
    }

    private func read<Value>(into value: inout Value, _ size: Int, at offset: Int) -> Bool {
        withUnsafeMutableBytes(of: &value) { buffer in buffer.baseAddress.map { read(into: $0, size, at: offset) } ?? false }
    }

    /// Fills `size` bytes at `target` from `offset` of the file; false when it cannot.
    private func read(into target: UnsafeMutableRawPointer, _ size: Int, at offset: Int) -> Bool {
        var filled = 0
        while filled < size {
            let count = pread(descriptor, target + filled, size - filled, off_t(offset + filled))
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            filled += count
        }
        return true
    }
}
