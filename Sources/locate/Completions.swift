import LocateSupport

/// Shell completion scripts for bash, zsh and fish, rendered from `Usage` like `--help`.
/// The tracked copies are in Scripts/completions/; a test checks they are what this renders.
enum Completions {
    private static var commands: [String] { CommandTable.commands.map(\.name) }
    private static var permissionActions: [String] { CommandTable.command("permission")?.words ?? [] }

    private static var allFlags: [String] { OptionTable.options.flatMap(\.flags) }

    static func bash(program: String = "locate") -> String {
        let function = "_" + program.replacing("-", with: "_").replacing(".", with: "_")
        return """
            # bash completion for \(program); generated from the same source as `locate --help`.
            \(function)() {
                local current=${COMP_WORDS[COMP_CWORD]}
                local previous=${COMP_WORDS[COMP_CWORD-1]}
                case $previous in
                    permission) COMPREPLY=($(compgen -W "\(permissionActions.joined(separator: " "))" -- "$current")); return ;;
                    \(OptionTable.options.filter { $0.value != nil }.flatMap(\.flags).joined(separator: "|"))) return ;;
                esac
                if [[ $COMP_CWORD -eq 1 && $current != -* ]]; then
                    COMPREPLY=($(compgen -W "\(commands.joined(separator: " "))" -- "$current"))
                    return
                fi
                COMPREPLY=($(compgen -W "\(allFlags.joined(separator: " "))" -- "$current"))
            }
            complete -F \(function) \(program)

            """
    }

    static func zsh(program: String = "locate") -> String {
        let specs = OptionTable.options.map { option -> String in
            let names = option.flags.count > 1 ? "{" + option.flags.joined(separator: ",") + "}" : option.flags[0]
            let help = option.help.replacing("'", with: "'\\''").replacing("[", with: "(").replacing("]", with: ")")
            return "    '\(names)[\(help)]\(option.value.map { ":\($0):" } ?? "")' \\"
        }
        return """
            #compdef \(program)
            # zsh completion for \(program); generated from the same source as `locate --help`.
            _arguments -s \\
            \(specs.joined(separator: "\n"))
                '1::command:(\(commands.joined(separator: " ")))' \\
                '2::action:(\(permissionActions.joined(separator: " ")))'

            """
    }

    static func fish(program: String = "locate") -> String {
        var lines = ["# fish completion for \(program); generated from the same source as `locate --help`."]
        lines.append("complete -c \(program) -n __fish_use_subcommand -f -a '\(commands.joined(separator: " "))'")
        lines.append(
            "complete -c \(program) -n '__fish_seen_subcommand_from permission' -f -a '\(permissionActions.joined(separator: " "))'")
        for option in OptionTable.options {
            var line = "complete -c \(program)"
            for flag in option.flags {
                line += flag.hasPrefix("--") ? " -l \(flag.dropFirst(2))" : " -s \(flag.dropFirst())"
            }
            if option.value != nil { line += " -r" }
            line += " -d '" + option.help.replacing("'", with: "\\'") + "'"
            lines.append(line)
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
