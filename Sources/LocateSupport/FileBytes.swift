import Glibc

/// Read-only bytes that are either an open file, read where asked (positioned reads: only what a
/// reader asks for is copied in, so a large file costs the process no memory for the parts it
/// does not read), or a copy of an array, with every read checked against the end: a damaged,
/// hostile or shrunk file gives wrong numbers or zeros, never a crash. Shared by the libraries
/// (`package`).
package final class FileBytes: @unchecked Sendable {
    // @unchecked: the bytes are never written after init; pread has no shared file offset.
    private let memory: UnsafeMutableRawPointer?
    private let descriptor: Int32
    /// The number of bytes.
    package let count: Int

    /// A copy of `bytes`.
    package init(_ bytes: [UInt8]) {
        let copy = UnsafeMutableRawPointer.allocate(byteCount: max(bytes.count, 1), alignment: 8)
        bytes.withUnsafeBytes { if let source = $0.baseAddress { copy.copyMemory(from: source, byteCount: bytes.count) } }
        memory = copy
        descriptor = -1
        count = bytes.count
    }

    private init(descriptor: Int32, count: Int) {
        memory = nil
        self.descriptor = descriptor
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

    deinit {
        if let memory { memory.deallocate() }
        if descriptor >= 0 { close(descriptor) }
    }

    /// The little-endian 32-bit word at `offset`, or 0 when it is not inside.
    package func word(_ offset: Int) -> Int {
        guard offset >= 0, offset <= count - 4 else { return 0 }
        if let memory { return Int(UInt32(littleEndian: memory.loadUnaligned(fromByteOffset: offset, as: UInt32.self))) }
        var value: UInt32 = 0
        guard read(into: &value, 4, at: offset) else { return 0 }
        return Int(UInt32(littleEndian: value))
    }

    /// The little-endian 16-bit word at `offset`, or 0 when it is not inside.
    package func short(_ offset: Int) -> Int {
        guard offset >= 0, offset <= count - 2 else { return 0 }
        if let memory { return Int(UInt16(littleEndian: memory.loadUnaligned(fromByteOffset: offset, as: UInt16.self))) }
        var value: UInt16 = 0
        guard read(into: &value, 2, at: offset) else { return 0 }
        return Int(UInt16(littleEndian: value))
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
