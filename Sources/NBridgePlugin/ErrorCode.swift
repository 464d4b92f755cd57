/// The stable codes a rejected call carries in its `code` property (WKBridgeKit's names where it has them).
public enum ErrorCode: String, Sendable, CaseIterable, Codable {
  /// No plugin is registered under the service name.
  case invalidService = "invalid_service"
  /// The service has no action of that name.
  case invalidActionName = "invalid_action_name"
  /// The options did not decode, or a value was out of range.
  case invalidParameter = "invalid_parameter"
  /// The app's permissions do not allow the service.
  case permissionDenied = "permission_denied"
  /// The thing named does not exist.
  case notFound = "not_found"
  /// A backend the action needs cannot be reached.
  case unavailable = "unavailable"
  /// The action declared a time limit and overran it.
  case timeout = "timeout"
  /// Anything else a plugin threw.
  case unknownError = "unknown_error"
}
