/**
 * Why a tool call failed. The values are stable strings: front ends and models may
 * match on them, and `toolhost call --json` prints them.
 */
export enum ToolErrorType {
  // Flow
  INVALID_TOOL_PARAMS = 'invalid_tool_params',
  TOOL_NOT_REGISTERED = 'tool_not_registered',
  EXECUTION_FAILED = 'execution_failed',
  EXECUTION_DENIED = 'execution_denied',
  UNKNOWN = 'unknown',

  // Files and paths
  FILE_NOT_FOUND = 'file_not_found',
  FILE_TOO_LARGE = 'file_too_large',
  READ_CONTENT_FAILURE = 'read_content_failure',
  FILE_WRITE_FAILURE = 'file_write_failure',
  PERMISSION_DENIED = 'permission_denied',
  NO_SPACE_LEFT = 'no_space_left',
  TARGET_IS_DIRECTORY = 'target_is_directory',
  PATH_NOT_IN_WORKSPACE = 'path_not_in_workspace',
  PATH_IS_NOT_A_DIRECTORY = 'path_is_not_a_directory',
  BINARY_FILE = 'binary_file',
  FILE_CHANGED_SINCE_READ = 'file_changed_since_read',

  // Edit
  ATTEMPT_TO_CREATE_EXISTING_FILE = 'attempt_to_create_existing_file',
  EDIT_NO_OCCURRENCE_FOUND = 'edit_no_occurrence_found',
  EDIT_EXPECTED_OCCURRENCE_MISMATCH = 'edit_expected_occurrence_mismatch',
  EDIT_NO_CHANGE = 'edit_no_change',

  // Search
  SEARCH_PATH_NOT_FOUND = 'search_path_not_found',
  INVALID_PATTERN = 'invalid_pattern',

  // Shell, discovery, MCP
  SHELL_EXECUTE_ERROR = 'shell_execute_error',
  DISCOVERED_TOOL_EXECUTION_ERROR = 'discovered_tool_execution_error',
  MCP_TOOL_ERROR = 'mcp_tool_error',

  // Web, memory, planning
  WEB_FETCH_FAILED = 'web_fetch_failed',
  WEB_SEARCH_FAILED = 'web_search_failed',
  MEMORY_TOOL_EXECUTION_ERROR = 'memory_tool_execution_error',
}
