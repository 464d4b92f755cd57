import NBridgeBuiltins
import NBridgeCLI

// The shipped `nbridge` is the CLI library with the built-in plugins; a plugin package's own
// executable is the same line with its plugins added.
NBridgeCommand.main(plugins: Builtins.plugins)
