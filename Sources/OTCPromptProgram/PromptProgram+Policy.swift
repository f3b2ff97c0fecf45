/// The password agent's program still sets its policy field by field (`program.keepsRawMode = true`, in its prompt
/// and its wait): each such name reads and writes `policy`. It goes once the agent builds its `PromptPolicy` whole,
/// as the pinentry and the keyscript do; no other front end uses it.
extension PromptProgram {
    subscript<Value>(dynamicMember field: WritableKeyPath<PromptPolicy, Value>) -> Value {
        get { policy[keyPath: field] }
        set { policy[keyPath: field] = newValue }
    }
}
