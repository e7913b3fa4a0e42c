/// The locate-agent(1) page: what it says beyond the tables (see `ManPage`).
extension ManualPage {
    static let agent = ManualPage(
        name: "locate-agent", section: 1,
        summary: "GeoClue's agent, answering desktop apps' location requests from locate's settings",
        commands: ["agent"], listsFiles: false, showsSettings: false,
        description: #"""
            ## Description
            Desktop programs do not read gpsd or `locate`: they ask GeoClue over D-Bus (GNOME Maps and
            Weather, Firefox through the portal, every Flatpak app through xdg-desktop-portal). Whether an
            app gets what GeoClue has is decided by GeoClue's *agent*, a program of the user's session, and
            only GNOME Shell, Phosh and a demo agent (which refuses every app without a `.desktop` file) are
            one: on sway, i3, MATE, Xfce or a kiosk there is none, and GeoClue serves nobody. `locate agent`
            is that agent, answering from `locate`'s settings, so one consent store decides for scripts,
            gpsd's clients and desktop apps alike.

            ```sh
            # once, as root: GeoClue takes only the agents its configuration lists
            sed -i '/^\[agent\]/,/^\[/ s/^whitelist=.*/&;locate/' /etc/geoclue/geoclue.conf
            systemctl restart geoclue
            systemctl --user enable --now locate-agent             # make install puts the unit there
            locate permission allow --always --app org.gnome.Maps  # a Flatpak app, by its id
            locate access                                          # every answer, with the level granted
            ```

            - **Installing.** GeoClue 2.6 (Debian 12) accepts an agent only when the `whitelist=` of the
              `[agent]` section of `/etc/geoclue/geoclue.conf` lists its name, `locate` (the list is
              separated by `;`: `whitelist=geoclue-demo-agent;gnome-shell;locate`), and reads that file
              when it starts (no `conf.d`). The agent registers with GeoClue's manager (`AddAgent("locate")`)
              when it starts and again each time GeoClue comes onto the bus (GeoClue is started on demand
              and forgets its agents when it exits idle); it says on stderr when it is registered, when
              GeoClue is not there, and when GeoClue refuses it (then with the line to add). It exports
              `org.freedesktop.GeoClue2.Agent` at `/org/freedesktop/GeoClue2/Agent` on the system bus
              (`DBUS_SYSTEM_BUS_ADDRESS` when it is set), and takes the calls of GeoClue alone. GeoClue
              keeps one agent per user: the last to register wins (GNOME Shell's, if it runs too).
            - **What GeoClue asks, and what it never asks.** GeoClue asks its agent about one kind of client
              only: one it takes for a sandboxed app, a Flatpak (a line of the client's
              `/proc/PID/cgroup` ending in `app-flatpak-ID-N.scope`), whose Flatpak id is the desktop id it
              asks about, `AuthorizeApp(ID, level)`. Every other client (a program run from a shell, a
              desktop program that is no Flatpak, whatever `DesktopId` it claims) is served without a
              question as long as an agent is registered, at most at the agent's `MaxAccuracyLevel`. So the
              agent decides per app for Flatpak apps, and for every other client through its level. GeoClue
              cuts a Flatpak id at its first dash: `org.example.My-App` is asked about as `org.example.My`.
            - **An app's answer.** `AuthorizeApp(ID, level)` is answered from `[app "ID"]` (else
              `[location]`), with the policy over it, as `locate --app ID` would be judged: `always` or
              `when-in-use`, authorized at the level asked (GeoClue's levels: 1 country, 4 city, 5
              neighbourhood, 6 street, 8 exact); `accuracy = reduced`, at most the city (4), at which
              GeoClue 2.6 does not start its NMEA source, so an app that has only that source gets
              nothing; denied, restricted, services off or settings that cannot be read, refused. A desktop
              app's window cannot be seen from here, so when-in-use is taken to hold when the app asks:
              GeoClue asks when an app starts using the location, which a desktop app does while it is
              used, and asks again at its next start. Nothing decided: when the agent runs in the
              foreground of a terminal, the question is put there (allow once, while using, always, or
              deny; the answer kept as `locate permission` keeps it, except allow once), one question at a
              time; otherwise (as a service) the app is refused and the attempt recorded, and `locate
              permission allow --app ID` lets it in at its next start. GeoClue waits 25 s for an answer:
              an answer given later is kept, but that start was refused.
            - **The level for everyone else.** `MaxAccuracyLevel` follows `[location]` and the policy as
              they change (the settings are watched; a change reaches GeoClue within a second, as
              `PropertiesChanged`): 0 when location services are off, `[location]` is denied or restricted,
              the settings cannot be read, or nothing is decided yet (GeoClue asks nothing about such
              clients, so nobody could be asked, and what is not decided is not allowed: `locate
              permission allow` opens it); 4 under reduced accuracy; 8 otherwise. At 0,
              GeoClue refuses every new client ("Geolocation disabled") and stops those it serves, sandboxed
              or not, whatever their sections say; when the level comes back, it starts them again. A change
              between 4 and 8 applies to the clients that start after it (GeoClue 2.6 acts on 0 and not 0
              only).
            - **Who had my location.** Every answer to GeoClue is a session in the access log
              (`locate access`): the app's id, the user, `via agent`, when, the level granted (`0` when
              refused, with the reason), never a position (GeoClue delivers the positions itself, so no
              count of them).
            - **Where GeoClue's positions come from.** GeoClue's own sources (Wi-Fi, modems, NMEA found on
              the network); for the receiver gpsd reads, `locate serve --nmea PATH` as GeoClue's NMEA socket,
              which gates GeoClue itself as the app `geoclue` (a serve run as GeoClue's user: see
              locate-serve(1)).

            Exit statuses: 0 after SIGINT or SIGTERM (SIGHUP does nothing: settings changes are taken as
            they come); 69 when the system bus cannot be reached, is lost, or libsystemd (sd-bus, opened
            only by this command) cannot be loaded; 78 when the settings cannot be read at the start. The
            tests run it against Debian's GeoClue 2.6 on a private system bus, its `where-am-i` demo
            reading the receiver through `locate serve --nmea`: positions with the agent registered and
            none without it, the client stopped by a global deny and the next one refused, three
            Flatpak-looking clients at once (a cgroup line bind-mounted over theirs) authorized, reduced
            and refused by their own sections, and every answer in `locate access`; and on a bus of its
            own, each change of the settings sent as `PropertiesChanged`, and a call from another than
            GeoClue refused.
            """#,
        details: ""
    )
}
