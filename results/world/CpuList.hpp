#pragma once
// Linux cpulist strings ("0-3,8,10-11"), as sysfs and taskset write them.
#include <string>
#include <vector>

namespace gpuscale::results {

// Sorted, unique CPU ids. Throws std::invalid_argument on malformed text.
std::vector<int> parse_cpulist(const std::string& text);
// The shortest cpulist for the ids (sorted or not).
std::string format_cpulist(std::vector<int> cpus);

}  // namespace gpuscale::results
