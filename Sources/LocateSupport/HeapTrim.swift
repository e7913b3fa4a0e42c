import Glibc

/// Gives the memory the allocator holds free back to the system (glibc's `malloc_trim`, every
/// arena): for a service whose clients came in a crowd and left, so that its memory comes back
/// to where it was instead of staying at the crowd's peak. It takes a few milliseconds: call it
/// when many have left, not per client. (Glibc's module leaves `malloc.h` out: the function is
/// looked up once; without it, nothing is given back.)
package enum HeapTrim {
    private typealias Trim = @convention(c) (Int) -> Int32

    private static let trim: Trim? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim").map {
        unsafeBitCast($0, to: Trim.self)
    }

    package static func releaseFreeMemory() {
        _ = trim?(0)
    }
}
