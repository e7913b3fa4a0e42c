import Glibc
import Testing

@testable import GPSLocation
@testable import LocateSupport

/// The connection's buffer starts small and grows as reads fill it: a valid line longer than its
/// first size is read whole, one longer than its last is skipped, and the line after each is read.
struct GPSDConnectionBufferTests {
    @Test func aLongLineIsReadWholeAndOneBeyondTheBufferIsSkipped() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && listen(listener, 1) == 0 && getsockname(listener, $0, &length) == 0
            }
        }
        try #require(bound)
        let port = String(UInt16(bigEndian: address.sin_port))
        let connection = GPSDConnection(endpoint: try GPSDEndpoint(host: "127.0.0.1", port: port), watch: .positions(poll: false))

        // Long by its white space, which JSON allows between members.
        func fix(_ latitude: Double, padding: Int) -> String {
            #"{"class":"TPV","device":"/dev/gps","mode":2,"time":"2026-01-01T08:00:00.000Z","#
                + String(repeating: " ", count: padding) + #""lat":\#(latitude),"lon":20.5}"# + "\n"
        }
        // 30 KB (beyond the first 4 KiB), 70 KB (beyond the 64 KiB at most), then a short one.
        let lines = Array((fix(10.5, padding: 30_000) + fix(11.5, padding: 70_000) + fix(12.5, padding: 0)).utf8)
        var peer: Int32 = -1
        defer { if peer >= 0 { close(peer) } }
        var latitudes: [Double] = []
        let deadline = ContinuousClock.now.advanced(by: .seconds(10))
        while latitudes.count < 2, ContinuousClock.now < deadline, let request = connection.pollRequest {
            var wait = pollfd(fd: request.descriptor, events: request.events, revents: 0)
            _ = poll(&wait, 1, 100)
            var reports: [GPSDReport] = []
            var messages: [GPSDMessage] = []
            _ = connection.advance(PollEvents(raw: wait.revents), reports: &reports, messages: &messages)
            for case .fix(let location) in reports { latitudes.append(location.latitude) }
            if peer < 0 {
                peer = accept(listener, nil, nil)
                if peer >= 0 { #expect(writeAll(lines[...], to: peer) == nil) }
            }
        }
        #expect(latitudes == [10.5, 12.5])
    }
}
