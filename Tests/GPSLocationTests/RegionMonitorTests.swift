import Foundation
import LocateSupport
import Testing

@testable import GPSLocation

struct RegionMonitorTests {
    /// Home: 100 m around a point in Seoul.
    static let home = circle("home", 37.5178, 126.8863, 100)
    static let depot = circle("depot", 37.5278, 126.8863, 50)

    /// A region the test knows is valid.
    static func circle(_ name: String, _ latitude: Double, _ longitude: Double, _ radius: Double) -> CircularRegion {
        do {
            return try CircularRegion(name: name, latitude: latitude, longitude: longitude, radius: radius)
        } catch {
            preconditionFailure("\(name) is a valid region: \(error)")
        }
    }

    /// A fix `metres` north of home's centre, with accuracy `accuracy`.
    static func fix(north metres: Double, accuracy: Double? = 5, second: Double = 0) -> Location {
        Location(
            unchecked: 37.5178 + metres / 110_990, longitude: 126.8863, time: Date(timeIntervalSince1970: 1_767_254_400 + second),
            horizontalAccuracy: accuracy, mode: .threeDimensional)
    }

    private func run(_ fixes: [Location], regions: [CircularRegion] = [home]) -> [String] {
        var monitor = RegionMonitor(regions: regions)
        return fixes.flatMap { monitor.process($0) }.map { "\($0.region.name) \($0.kind.rawValue) \($0.state.rawValue)" }
    }

    @Test func aCrossingGivesInitialEnterAndExitInOrder() {
        let events = run([Self.fix(north: 300), Self.fix(north: 150), Self.fix(north: 50), Self.fix(north: 0), Self.fix(north: -200)])
        #expect(events == ["home initial outside", "home enter inside", "home exit outside"])
    }

    @Test func aNamedMonitorStartsFromItsRecordsAndSaysSinceWhen() throws {
        var first = try RegionMonitor(name: "walk", regions: [Self.home, Self.depot])
        _ = first.process(Self.fix(north: 0, second: 10))
        #expect(first.records.map(\.state) == [.inside, .outside])
        #expect(first.records.map(\.date) == [Date(timeIntervalSince1970: 1_767_254_410), Date(timeIntervalSince1970: 1_767_254_410)])
        // The next run: home as it was, the depot moved (a new condition), a region gone.
        let moved = Self.circle("depot", 37.5, 126.8863, 50)
        var next = try RegionMonitor(name: "walk", regions: [Self.home, moved], restoring: first.records)
        let events = next.process(Self.fix(north: 300, second: 20))
        #expect(
            events.map { "\($0.region.name) \($0.kind.rawValue) \($0.state.rawValue)" } == ["home exit outside", "depot initial outside"])
        #expect(events.map(\.since) == [Date(timeIntervalSince1970: 1_767_254_410), nil])
        #expect(throws: GPSLocationError.self) { try RegionMonitor(name: "../etc", regions: []) }
        #expect(!RegionMonitor.isValidName(".hidden") && !RegionMonitor.isValidName("a/b") && RegionMonitor.isValidName("van-12.home_2"))
    }

    @Test func theDecidingFixIsTheFirstClearlyInside() {
        var monitor = RegionMonitor(regions: [Self.home])
        _ = monitor.process(Self.fix(north: 300))
        #expect(monitor.process(Self.fix(north: 97)).isEmpty, "97 m ± 5 m straddles the 100 m boundary")
        let enter = monitor.process(Self.fix(north: 94))
        #expect(enter.map(\.kind) == [.enter])
        #expect(abs((enter.first?.location.latitude ?? 0) - Self.fix(north: 94).latitude) < 1e-12)
        #expect(monitor.states["home"] == .inside)
    }

    @Test func jitterAcrossTheBoundaryWithinTheAccuracyDoesNotFlap() {
        let jitter = (0..<200).map { Self.fix(north: 100 + ($0 % 2 == 0 ? -7 : 7), accuracy: 8) }
        #expect(run([Self.fix(north: 0)] + jitter) == ["home initial inside"])
    }

    @Test func aFixLessAccurateThanTheRadiusDecidesNothing() {
        #expect(run([Self.fix(north: 500, accuracy: 150), Self.fix(north: 0, accuracy: 150)]) == ["home initial unknown"])
        #expect(
            run([Self.fix(north: 0, accuracy: 150), Self.fix(north: 0, accuracy: 10)]) == ["home initial unknown", "home enter inside"])
        #expect(run([Self.fix(north: 0, accuracy: nil)]) == ["home initial inside"], "an unknown accuracy is taken as exact")
    }

    @Test func aReducedPositionDecidesNothing() {
        var reduced = Self.fix(north: 0)
        reduced.accuracy = .reducedAccuracy
        #expect(run([reduced]) == ["home initial unknown"])
    }

    @Test func eachRegionHasItsOwnStateInTheOrderGiven() {
        let events = run([Self.fix(north: 0), Self.fix(north: 1110), Self.fix(north: 0)], regions: [Self.home, Self.depot])
        #expect(
            events == [
                "home initial inside", "depot initial outside", "home exit outside", "depot enter inside", "home enter inside",
                "depot exit outside",
            ])
    }

    @Test func aRegionAddedLaterGetsItsInitialEventAtTheNextFixAndARemovedOneNoMore() {
        var monitor = RegionMonitor(regions: [Self.home])
        #expect(monitor.process(Self.fix(north: 0)).map(\.kind) == [.initial])
        monitor.add(Self.depot)
        let next = monitor.process(Self.fix(north: 300))
        #expect(
            next.map { "\($0.region.name) \($0.kind.rawValue) \($0.state.rawValue)" } == ["home exit outside", "depot initial outside"])
        monitor.remove(named: "home")
        #expect(monitor.process(Self.fix(north: 1110)).map { "\($0.region.name) \($0.kind.rawValue)" } == ["depot enter"])
        #expect(monitor.regions == [Self.depot] && monitor.states == ["depot": .inside])
    }

    @Test func aRegionIsValidatedWhenMade() {
        func rejected(_ name: String, _ latitude: Double, _ radius: Double) -> String? {
            do {
                _ = try CircularRegion(name: name, latitude: latitude, longitude: 0, radius: radius)
                return nil
            } catch {
                guard case .invalidArgument(let argument, _) = error else { return "\(error)" }
                return argument
            }
        }
        #expect(rejected("", 0, 10) == "name")
        #expect(rejected("a\u{202E}b", 0, 10) == "name")
        #expect(rejected("x", 91, 10) == "center")
        #expect(rejected("x", 0, 0) == "radius")
        #expect(rejected("x", 0, .nan) == "radius")
        #expect(rejected("x", 0, 2e7) == "radius")
        #expect(rejected("x", 0, 10) == nil)
    }

    /// Names that show as nothing, or as a blank that is not a space, or that pile marks over the
    /// lines around them, are not names: every one is refused for its `name`.
    @Test(arguments: [
        "\u{3164}", "\u{FFA0}", "\u{115F}", "\u{1160}", "\u{2800}", "\u{3164}\u{3164}", "\u{115F}\u{1160}", "\u{2800} \u{2800}",
        "\u{1D159}", "home\u{3164}", "\u{2800}home", "a" + String(repeating: "\u{0301}", count: 25),
        "a" + String(repeating: "\u{0301}", count: 5),
        "\u{200B}", "ho\u{200B}me", "home\u{2060}", "\u{FEFF}home", "ho\u{200D}me", "home\u{E0041}\u{E007F}", "\u{E0001}",
        "home\u{FE0F}", "home\u{034F}", "home\u{00AD}", "a\u{2028}b", "\u{E000}",
    ])
    func blankOrHiddenNamesAreRefused(name: String) {
        #expect(!CircularRegion.isValidName(name), "\(name.unicodeScalars.map { String($0.value, radix: 16) })")
        #expect(throws: GPSLocationError.self) { try CircularRegion(name: name, latitude: 0, longitude: 0, radius: 10) }
        do {
            _ = try CircularRegion(name: name, latitude: 0, longitude: 0, radius: 10)
        } catch {
            guard case .invalidArgument(let argument, let reason) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(argument == "name")
            #expect(!reason.unicodeScalars.contains { UntrustedText.isHidden($0) }, "\(reason.debugDescription)")
        }
    }

    @Test(arguments: [
        "home", "서울", "東京", "Reykjavík", "e\u{301}", "a" + String(repeating: "\u{0301}", count: 4), "ậ̃", "दिल्ली", "القاهرة",
        "🏠", "🇰🇷", "home depot", "a\u{A0}b",
    ])
    func namesInAnyScriptAreNames(name: String) {
        #expect(CircularRegion.isValidName(name), "\(name.unicodeScalars.map { String($0.value, radix: 16) })")
    }

    @Test func regionsAcrossTheAntimeridianAndAtThePole() {
        let fiji = Self.circle("fiji", -17, 180, 1000)
        let pole = Self.circle("pole", 90, 0, 1000)
        var monitor = RegionMonitor(regions: [fiji, pole])
        let west = Location(unchecked: -17, longitude: -179.995, mode: .twoDimensional)
        #expect(monitor.process(west).map(\.state) == [.inside, .outside])
        let nearPole = Location(unchecked: 89.995, longitude: 123, mode: .twoDimensional)
        #expect(monitor.process(nearPole).map(\.kind) == [.exit, .enter])
    }
}

struct VisitDetectorTests {
    /// Fixes every 30 s: `stay` minutes at home, a walk of 1 km north, `stay` minutes there.
    static func stopGoStop(stay: Int) -> [Location] {
        var fixes: [Location] = []
        var second = 0.0
        for index in 0..<(stay * 2) {
            fixes.append(RegionMonitorTests.fix(north: Double(index % 3) * 4, accuracy: 5, second: second))
            second += 30
        }
        for step in 1...10 {
            fixes.append(RegionMonitorTests.fix(north: Double(step) * 100, accuracy: 5, second: second))
            second += 30
        }
        for index in 0..<(stay * 2) {
            fixes.append(RegionMonitorTests.fix(north: 1000 + Double(index % 2) * 6, accuracy: 5, second: second))
            second += 30
        }
        return fixes
    }

    @Test func stopGoStopGivesArrivalDepartureArrivalByTheReceiverClock() throws {
        var detector = try VisitDetector(radius: 50, dwell: .seconds(300))
        let events = Self.stopGoStop(stay: 8).flatMap { detector.process($0) }
        #expect(events.map(\.kind) == [.arrival, .departure, .arrival])
        let start = Date(timeIntervalSince1970: 1_767_254_400)
        #expect(events[0].visit.arrival == start, "dated by the first fix of the stay")
        #expect(events[0].visit.departure == nil)
        #expect(events[1].visit.arrival == start)
        #expect(events[1].visit.departure == start.addingTimeInterval(15 * 30), "the last fix inside")
        #expect(events[2].visit.arrival == start.addingTimeInterval(25 * 30), "the walk's last step reaches the second stop")
        #expect(abs(events[0].visit.latitude - RegionMonitorTests.fix(north: 4).latitude) < 0.0001)
        #expect(events[0].visit.horizontalAccuracy == 5)
    }

    /// A walk that stops just beyond the circle of its fixes (51 m from their centre, within
    /// the fix's 3 m accuracy: neither clearly inside nor clearly outside) still makes a visit.
    @Test func aReceiverThatStopsJustBeyondAPassingStayStillArrives() throws {
        var detector = try VisitDetector(radius: 50, dwell: .seconds(300))
        let walk = (0..<5).map { RegionMonitorTests.fix(north: Double($0) * 10, accuracy: 3, second: Double($0)) }
        let stop = (1...400).map { RegionMonitorTests.fix(north: 71, accuracy: 3, second: 4 + Double($0)) }
        let events = (walk + stop).flatMap { detector.process($0) }
        #expect(events.map(\.kind) == [.arrival])
    }

    @Test func aStayShorterThanTheDwellIsNoVisit() throws {
        var detector = try VisitDetector(radius: 50, dwell: .seconds(300))
        #expect(Self.stopGoStop(stay: 2).flatMap { detector.process($0) }.isEmpty)
    }

    @Test func fixesWithoutATimeOrTooInaccurateDecideNothing() throws {
        var detector = try VisitDetector()
        var untimed = RegionMonitorTests.fix(north: 0)
        untimed.time = nil
        #expect(detector.process(untimed).isEmpty)
        let coarse = (0..<20).map { RegionMonitorTests.fix(north: 0, accuracy: 80, second: Double($0) * 60) }
        #expect(coarse.flatMap { detector.process($0) }.isEmpty)
    }
}
