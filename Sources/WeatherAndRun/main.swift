// An example of the GPSLocation libraries used the way an iOS app uses CoreLocation: ask for
// permission, get one fix (the weather app), then follow the position with a distance filter
// (the running app), naming places as it goes. Built by `make test`, never installed.
//
//   swift run WeatherAndRun [host[:port]] [fixes]
//
// With CoreLocation the same program reads: CLLocationManager, CLAuthorizationStatus,
// CLAccuracyAuthorization, manager.location, requestLocation(), CLLocationUpdate.liveUpdates(),
// CLGeocoder; here: GPSLocationManager, AuthorizationStatus, AccuracyAuthorization,
// manager.location, requestLocation(...), liveUpdates(...), PlaceFinder.
import GPSLocation
import GPSLocationConsent
import GPSLocationPlaces

/// How this program asks its user: a question on standard input, asked on the main actor, as
/// an app's dialog would be. (`locate` asks on its terminal.)
@MainActor
final class AskOnStandardInput: AuthorizationPrompter {
    private(set) var questionsAsked = 0

    func ask(_ question: AuthorizationQuestion) async -> AuthorizationAnswer? {
        questionsAsked += 1
        print("\(question.app.map { "\"\($0)\"" } ?? "This program") would like to use your location", terminator: "")
        // The purpose is the caller's text: its control characters are not the terminal's business.
        print(
            question.purpose.map {
                ": "
                    + String(
                        String.UnicodeScalarView(
                            $0.unicodeScalars.filter {
                                !$0.properties.isDefaultIgnorableCodePoint && $0.properties.generalCategory != .control
                            }
                        ).prefix(200))
            } ?? ".")
        print("Allow? [o]nce, [w]hile using, [a]lways, [n]o: ", terminator: "")
        switch readLine()?.lowercased() {
        case "o": return .allowOnce
        case "w": return .allowWhileUsing
        case "a": return .allowAlways
        case "n": return .deny
        default: return nil
        }
    }
}

/// "64.150432, -21.940457 ±4 m, Reykjavik, Capital Region, Iceland".
func describe(_ location: Location, places: PlaceFinder?) -> String {
    let accuracy = location.horizontalAccuracy.map { " ±\(Int($0.rounded())) m" } ?? ""
    let place = places?.reverseGeocode(location).map { ", " + $0.formatted } ?? ""
    func rounded(_ degrees: Double) -> Double { (degrees * 1e6).rounded() / 1e6 }
    return "\(rounded(location.latitude)), \(rounded(location.longitude))\(accuracy)\(place)"
}

@main
enum WeatherAndRun {
    static func main() async {
        let arguments = CommandLine.arguments.dropFirst()
        let endpoint = (try? GPSDEndpoint(parsing: arguments.first ?? "localhost:2947")) ?? .default
        let fixes = arguments.dropFirst().first.flatMap { Int($0) } ?? 3
        let manager: GPSLocationManager
        do {
            manager = GPSLocationManager(
                authorizationSource: try ConsentStore(appName: "weather-and-run"),
                configuration: GPSLocationConfiguration(endpoint: endpoint))
        } catch {
            return print("settings:", error)
        }

        // 1. Permission, asked only when the user has to be asked; then the one guard.
        let authorization: Authorization
        do {
            authorization = try await manager.requestWhenInUseAuthorization(
                purpose: "to show the weather where you are", prompter: AskOnStandardInput())
        } catch {
            return print("settings:", error)
        }
        guard authorization.isAuthorized else {
            return print("location is not authorized (\(authorization.denial?.rawValue ?? "?"))")
        }
        if authorization.accuracy == .reducedAccuracy { print("approximate location only") }
        let places = try? PlaceFinder()

        // 2. The weather app: one fix, good to 100 m, within 10 s.
        do {
            let here = try await manager.requestLocation(accuracy: 100, timeout: .seconds(10))
            print("here:", describe(here, places: places))
        } catch .accuracyNotReached(_, let best) {
            print("roughly here:", describe(best, places: places))
        } catch {
            return print("no fix:", error)
        }
        if let last = manager.location, let age = last.age() { print("last location is \(age) old") }

        // 3. The running app: a fix every 10 m moved, with a heartbeat every 30 s.
        var printed = 0
        do {
            for try await update in await manager.liveUpdates(try LiveUpdateOptions(distanceFilter: 10, heartbeat: .seconds(30))) {
                switch update {
                case .location(let location):
                    print("run:", describe(location, places: places))
                    printed += 1
                case .status(.gpsdLost(let retryIn)):
                    print("gpsd went away; trying again in \(retryIn)")
                case .status(let event):
                    print("status:", event.name)
                }
                if printed == fixes { break }
            }
        } catch {
            print("stream ended:", error)
        }
    }
}
