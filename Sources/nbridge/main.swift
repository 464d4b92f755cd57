import ArgumentParser
import Glibc
import NBridgeRuntime

// The plain `nbridge run FILE [-- ARGS...]` starts without the argument parser when its
// checks pass; anything else, and any problem, goes through the parser, which reports it.
if let request = RunRequest(plainArguments: CommandLine.arguments), let configuration = try? request.configuration() {
  request.run(configuration)
}
NBridgeCommand.mainWithUsageStatus()
