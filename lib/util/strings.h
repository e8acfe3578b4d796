// Small string helpers shared by the library and the tools.
#ifndef TFLITE_INSPECT_LIB_UTIL_STRINGS_H_
#define TFLITE_INSPECT_LIB_UTIL_STRINGS_H_

#include <string>
#include <vector>

namespace tflite_inspect {

// Levenshtein distance (insert, delete, substitute), case-sensitive.
int EditDistance(const std::string& a, const std::string& b);
std::string ToLower(std::string s);
// Candidates that are near `word`: equal ignoring case, or within an edit distance of
// max(1, word.size() / 4) ignoring case. Best first.
std::vector<std::string> NearMatches(const std::string& word,
                                     const std::vector<std::string>& candidates);
// Sorted integers with consecutive runs written "first-last": {6, 0, 1, 2, 3} with
// separator "," is "0-3,6" (taskset's CPU lists, node id lists).
std::string JoinRanges(std::vector<int> values, const std::string& separator);
// Compares dotted version strings numerically ("2.10.0" > "2.9.1"); missing parts are 0.
int CompareVersions(const std::string& a, const std::string& b);

}  // namespace tflite_inspect

#endif  // TFLITE_INSPECT_LIB_UTIL_STRINGS_H_
