#pragma once
// Small helpers for optional fields in JSON records: a missing measurement is written as null and
// read back as std::nullopt, so "not measured" never masquerades as zero.
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace gpuscale::results {

template <class T>
void put_optional(nlohmann::json& j, const char* key, const std::optional<T>& value) {
  if (value) {
    j[key] = *value;
  } else {
    j[key] = nullptr;
  }
}

template <class T>
void get_optional(const nlohmann::json& j, const char* key, std::optional<T>& value) {
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) {
    value.reset();
  } else {
    value = it->get<T>();
  }
}

// Reads key when present; leaves value untouched otherwise (fields added in later schema minors).
template <class T>
void get_if_present(const nlohmann::json& j, const char* key, T& value) {
  const auto it = j.find(key);
  if (it != j.end() && !it->is_null()) value = it->get<T>();
}

}  // namespace gpuscale::results
