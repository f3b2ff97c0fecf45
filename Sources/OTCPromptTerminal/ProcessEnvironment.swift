// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc

/// The process's environment as a value, so the configuration code that reads it stays pure.
public enum ProcessEnvironment {
    /// Every NAME=value of `environ`; the first occurrence of a name wins, as getenv does.
    public static var current: [String: String] {
        var variables: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                let name = String(text[..<equals])
                if variables[name] == nil { variables[name] = String(text[text.index(after: equals)...]) }
            }
            entry += 1
        }
        return variables
    }
}
