/// The locate.conf(5) page: what it says beyond the tables (see `ManPage`).
extension ManualPage {
    static let conf = ManualPage(
        name: "locate.conf", section: 5,
        summary: "locate's settings and the administrator's policy",
        commands: [], listsFiles: true, showsSettings: true,
        description: #"""
            ## Description
            ```ini
            # ~/.config/locate/locate.conf ($XDG_CONFIG_HOME)    # /etc/xdg/locate/policy.conf ($XDG_CONFIG_DIRS)
            [location]                                           [location]
            services = on              # on | off                services = off            # the machine-wide switch
            authorization = when-in-use  # when-in-use | always | denied                   authorization = restricted
            accuracy = full            # full | reduced          accuracy = reduced        # a cap for everyone
            timeout = 30               # --once's default        [fallback]
            [fallback]                                           latitude = 51.5
            latitude = 37.517829                                 longitude = -0.12
            longitude = 126.886270     # or: place = Seoul (see locate-geocode(1))
            enabled = yes              # no: print nothing instead
            [gpsd]
            server = localhost:2947
            [mqtt]                     # locate publish (see locate-publish(1))
            password-file = /home/me/.config/locate/mqtt-password   # yours alone, mode 0600
            ca-file = /home/me/.config/locate/broker-ca.crt         # mqtts:// trusts it instead of the system's CAs

            [http]                     # locate publish to http[s]:// (see locate-publish(1))
            password-file = /home/me/.config/locate/http-password   # Basic auth for the URL's user; yours alone, mode 0600
            ca-file = /home/me/.config/locate/server-ca.crt         # https:// trusts it instead of the system's CAs

            [history]                  # locate record (see locate-history(1))
            keep = 90d                 # delete points older than 90 days (the policy's value wins)
            [app "weather"]            # --app weather / LOCATE_APP=weather
            authorization = when-in-use
            accuracy = reduced
            ```

            - Your file is written by `locate permission ...` and by the prompt: only the keys concerned
              change, and on a line that changes only the value does (its indentation, spacing and inline
              comment stay: `authorization = denied   # until I trust it` becomes `authorization = always
              # until I trust it`); comments, line ends (CRLF files stay CRLF), a byte-order mark, a missing final line end
              and everything else stay. The reader and the editor share one line model, so any file `locate`
              reads it can also edit.
            - **Every edit is a transaction.** An exclusive lock (`.locate.conf.lock`, beside the file) is
              held while the file is read, edited, written to a temporary file created exclusively under a
              name of its own (mode 0600, synced), renamed over the file, and read back to check it says
              exactly what was meant. Twenty `locate permission allow --app ...` run at once keep twenty
              sections; a deny among them is never lost. When `locate.conf` is a symbolic link (stow,
              home-manager, chezmoi), the file it leads to is edited and the link stays.
            - **Files that must not be trusted are refused**, as sshd refuses them: a `locate.conf` that is
              not a regular file (a FIFO, a directory), that its group or others can write, or that anyone but
              you (or root) owns, and a policy that is not root's alone (owned by root, writable by no one
              else). `locate` names the file (`locate: .../locate.conf: is writable by others (mode 666); run
              chmod go-w on it`), prints nothing, does not ask gpsd, and exits 78. A FIFO is refused at once,
              never read. So is a file whose way someone else could change: a directory on the path to it
              (through every symbolic link) that is not yours or root's or that others can write, a link of
              someone else's, or a shared sticky directory such as `/tmp` as the file's own (see the threat
              model below).
            - Paths are absolute only: with `HOME` relative or unset, your home is the passwd entry's, and a
              relative `XDG_CONFIG_HOME` or `XDG_CACHE_HOME` is ignored (as the XDG specification says).
            - The files are read once per run, and again only when their `stat` signature changes.
            - The policy is the administrator's. It can only restrict: its `services = off`,
              `authorization = restricted` and `accuracy = reduced` win over anything in your file, and its
              `[fallback]` and `[gpsd]` values win over yours. The first `locate/policy.conf` found along
              `$XDG_CONFIG_DIRS` applies.
            - Precedence for everything else: command line, then environment (`LOCATE_GPSD`, `LOCATE_APP`),
              then `[app "NAME"]`, then `[location]`, then the built-in defaults.
            - **Fail closed.** An unknown section or key, a bad value, an unterminated quote, bytes that are not
              text, or a file that cannot be read is an error naming `file:line:column` and what was expected.
              `locate` then prints nothing on stdout, does not connect to gpsd, and exits 78.
            """#,
        details: ""
    )
}
