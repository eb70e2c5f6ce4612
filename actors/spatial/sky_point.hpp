// A position on the sky in equatorial coordinates (right ascension and declination, degrees), and
// the two forms the spatial indexes use: the coordinates themselves for regions drawn as
// coordinate boxes, and a unit vector for distances, where the angle between two positions is
// exact at the poles and across right ascension 0 (the chord between unit vectors grows with the
// angle, so the nearest vector is the nearest position).
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <optional>
#include <string>

namespace cwf::spatial {

struct SkyPoint {
  double ra = 0;   // [0, 360)
  double dec = 0;  // [-90, 90]
};

// Right ascension brought into [0, 360): 360 is 0, -10 is 350.
inline double normalize_ra(double ra) {
  double r = std::fmod(ra, 360.0);
  if (r < 0) r += 360.0;
  return r == 360.0 ? 0.0 : r;
}

// A position from two numbers, or the reason they are not one (a declination beyond a pole, a
// value that is not finite).
inline std::optional<SkyPoint> sky_point(double ra, double dec, std::string& error) {
  if (!std::isfinite(ra) || !std::isfinite(dec)) {
    error = "coordinates must be finite numbers";
    return std::nullopt;
  }
  if (dec < -90.0 || dec > 90.0) {
    error = "declination " + std::to_string(dec) + " is outside [-90, 90]";
    return std::nullopt;
  }
  return SkyPoint{normalize_ra(ra), dec};
}

inline constexpr double kRadiansPerDegree = std::numbers::pi / 180.0;

inline std::array<double, 3> unit_vector(SkyPoint p) {
  const double ra = p.ra * kRadiansPerDegree, dec = p.dec * kRadiansPerDegree;
  return {std::cos(dec) * std::cos(ra), std::cos(dec) * std::sin(ra), std::sin(dec)};
}

// The angle between two positions, in degrees (haversine: accurate for small separations too).
inline double separation_degrees(SkyPoint a, SkyPoint b) {
  const double d_dec = (b.dec - a.dec) * kRadiansPerDegree;
  const double d_ra = (b.ra - a.ra) * kRadiansPerDegree;
  const double h = std::pow(std::sin(d_dec / 2), 2) + std::cos(a.dec * kRadiansPerDegree) *
                                                          std::cos(b.dec * kRadiansPerDegree) *
                                                          std::pow(std::sin(d_ra / 2), 2);
  return 2 * std::asin(std::sqrt(std::min(1.0, h))) / kRadiansPerDegree;
}

// The length of the chord between two unit vectors `degrees` apart.
inline double chord_of(double degrees) {
  return 2 * std::sin(std::min(degrees, 180.0) * kRadiansPerDegree / 2);
}

}  // namespace cwf::spatial
