#include "lifebench/result_record.hpp"

#include <array>
#include <cstdio>

namespace lifebench {
namespace {

constexpr std::array<ResultStatus, 4> kStatuses = {
    ResultStatus::ok, ResultStatus::failed, ResultStatus::unsupported, ResultStatus::unavailable};

template <class T> nlohmann::json or_null(const std::optional<T>& value) {
  return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

std::string hex(std::uint64_t value) {
  std::array<char, 19> text{};
  std::snprintf(text.data(), text.size(), "0x%llx", static_cast<unsigned long long>(value));
  return text.data();
}

nlohmann::json final_state_json(const FinalStateCheck& check) {
  using Status = FinalStateCheck::Status;
  nlohmann::json json = {{"status", check.status == Status::passed   ? "passed"
                                    : check.status == Status::failed ? "failed"
                                                                     : "not_run"},
                         {"generations", check.generations}};
  if (check.status != Status::passed) json["reason"] = check.reason;
  return json;
}

nlohmann::json verification_json(const std::optional<ResultVerification>& verification) {
  if (!verification) return {{"status", "not_run"}};
  const ResultVerification& v = *verification;
  nlohmann::json json = {
      {"status", v.passed ? "passed" : "failed"},
      {"problem", v.problem.to_string()},
      {"generations", v.generations},
      {"reference_hash", hex(v.reference_hash)},
      {"first_difference", v.passed ? nlohmann::json(nullptr) : nlohmann::json(v.first_difference)},
      {"scope", v.timed_problem ? "timed_problem" : "smaller_problem"},
      {"final_state", final_state_json(v.final_state)}};
  if (v.pattern.empty()) {
    json["soup"] = v.soup;
  } else {
    json["pattern"] = v.pattern;
  }
  return json;
}

nlohmann::json pattern_json(const ResultPattern& pattern) {
  nlohmann::json json = {
      {"name", pattern.name}, {"path", pattern.path}, {"hash", pattern.hash}, {"offset", nullptr}};
  if (pattern.offset) json["offset"] = *pattern.offset;
  return json;
}

nlohmann::json timing_json(const ResultTiming& t) {
  nlohmann::json timing = {
      {"clock", t.clock},
      {"warmup", t.warmup},
      {"repetitions", t.repetitions},
      {"seconds", t.seconds},
      {"median_s", t.median_s},
      {"min_s", t.min_s},
      {"max_s", t.max_s},
      {"cv", t.cv},
      {"median_ci",
       {{"low_s", t.median_ci.low}, {"high_s", t.median_ci.high}, {"level", t.median_ci.level}}},
      {"stop", statistics::to_string(t.stop)},
      {"target_rel_ci", t.target_rel_ci}};
  if (!t.phases.empty()) timing["phases"] = t.phases;
  return timing;
}

nlohmann::json throughput_json(const ResultThroughput& t) {
  return {{"cell_updates_per_second", t.cell_updates_per_second},
          {"seconds_per_generation", t.seconds_per_generation},
          {"bytes_per_generation", or_null(t.bytes_per_generation)},
          {"bytes_per_second", or_null(t.bytes_per_second)}};
}

} // namespace

std::string to_string(ResultStatus status) {
  switch (status) {
  case ResultStatus::ok:
    return "ok";
  case ResultStatus::failed:
    return "failed";
  case ResultStatus::unsupported:
    return "unsupported";
  case ResultStatus::unavailable:
    return "unavailable";
  }
  return "failed";
}

std::optional<ResultStatus> parse_result_status(std::string_view text) {
  for (const ResultStatus status : kStatuses) {
    if (to_string(status) == text) return status;
  }
  return std::nullopt;
}

void ResultRecord::fail(ResultStatus not_ok, std::string why) {
  status = not_ok;
  reason = std::move(why);
}

nlohmann::json ResultRecord::to_json() const {
  nlohmann::json result = {
      {"experiment", experiment},
      {"backend", backend},
      {"family", family},
      {"params", params},
      {"problem", problem.to_string()},
      {"rule", problem.rule.to_string()},
      {"shape", problem.shape.to_string()},
      {"boundary", lifebench::to_string(problem.boundary)},
      {"cells", problem.shape.cells()},
      {"generations", generations},
      {"density", or_null(density)},
      {"status", lifebench::to_string(status)},
      {"reason", status == ResultStatus::ok ? nlohmann::json(nullptr) : nlohmann::json(reason)},
      {"verification", verification_json(verification)}};
  if (pattern) result["pattern"] = pattern_json(*pattern);
  if (!external.empty()) result["external"] = external;
  if (host) result["host"] = {{"hwy_target", or_null(host->hwy_target)}};
  if (status != ResultStatus::ok) return result;
  if (timing) result["timing"] = timing_json(*timing);
  if (throughput) result["throughput"] = throughput_json(*throughput);
  if (device) result["device"] = *device;
  if (benchmark) result["benchmark"] = *benchmark;
  return result;
}

} // namespace lifebench
