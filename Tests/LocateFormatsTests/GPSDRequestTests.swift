import Testing

@testable import LocateFormats

/// gpsd's requests: what a client writes is read back by serve as the same request, and what
/// `locate` writes to gpsd is what gpsd's own clients write.
struct GPSDRequestTests {
    private func requests(_ text: String) -> [GPSDRequest] {
        var requests: [GPSDRequest] = []
        var rest = Array(text.utf8)[...]
        var startsSegment = true
        while case .request(let request, let after) = GPSDRequest.next(rest, startsSegment: startsSegment) {
            requests.append(request)
            rest = after
            startsSegment = false
        }
        return requests
    }

    /// Random changes of every member (a device's path with quotes, backslashes and other
    /// scripts too), with requests without an object between them: read back, they are the
    /// requests written, in order, to the last byte.
    @Test func writtenRequestsReadBackTheSame() {
        var generator = SystemRandomNumberGenerator()
        func some<Value>(_ make: () -> Value) -> Value? { Bool.random(using: &generator) ? make() : nil }
        let paths = ["/dev/ttyACM0", "/dev/pts/1", #"/dev/a "b" \c"#, "/dev/gps-ü", ""]
        for _ in 0..<1_000 {
            let change = WatchChange(
                enable: Bool.random(using: &generator), json: some { Bool.random(using: &generator) },
                nmea: some { Bool.random(using: &generator) }, raw: some { Int.random(in: 0...2, using: &generator) },
                scaled: some { Bool.random(using: &generator) }, split24: some { Bool.random(using: &generator) },
                timing: some { Bool.random(using: &generator) }, pps: some { Bool.random(using: &generator) },
                device: some { paths.randomElement(using: &generator) }.flatMap { $0 })
            let name = [GPSDRequest.Name.poll, .devices, .version, .device].randomElement(using: &generator) ?? .poll
            let expected: GPSDRequest =
                switch name {
                case .poll: .poll
                case .devices: .devices
                case .version: .version
                default: .device(path: nil)
                }
            #expect(requests(GPSDRequest.text(watch: change) + GPSDRequest.text(name)) == [.watch(change), expected])
        }
    }

    /// `locate`'s WATCH for positions with its POLL, and a relay's of one receiver, as
    /// gpspipe and libgps write theirs.
    @Test func theRequestsAreGpsdClientsOwn() {
        #expect(GPSDRequest.text(watch: WatchChange(json: true)) + GPSDRequest.text(.poll) == #"?WATCH={"enable":true,"json":true};?POLL;"#)
        #expect(
            GPSDRequest.text(watch: WatchChange(json: true, nmea: true, timing: true, pps: true, device: "/dev/ttyACM0"))
                == #"?WATCH={"enable":true,"json":true,"nmea":true,"timing":true,"pps":true,"device":"/dev/ttyACM0"};"#)
        #expect(GPSDRequest.text(.devices) == "?DEVICES;")
        #expect(GPSDRequest.text(watch: WatchChange(enable: false)) == #"?WATCH={"enable":false};"#)
    }
}
