import Glibc
import Testing

@testable import GPSLocation
@testable import LocateSupport

/// The connection's buffer starts small and grows as reads fill it: a valid line longer than its
/// first size is read whole, one longer than its last is skipped, and the line after each is read.
struct GPSDConnectionBufferTests {
    @Test func aLongLineIsReadWholeAndOneBeyondTheBufferIsSkipped() throws {
        guard case .success(let listener) = ServerSocket.listen(on: .loopback(host: "127.0.0.1", port: 0)),
            case .loopback(_, let port) = listener.address
        else {
            Issue.record("no loopback listener")
            return
        }
        defer { close(listener.descriptor) }
        let connection = GPSDConnection(endpoint: try GPSDEndpoint(host: "127.0.0.1", port: String(port)), watch: .positions(poll: false))

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
                peer = accept(listener.descriptor, nil, nil)
                if peer >= 0 { #expect(writeAll(lines[...], to: peer) == nil) }
            }
        }
        #expect(latitudes == [10.5, 12.5])
    }
}
