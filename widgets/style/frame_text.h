#pragma once
// A sampled stack's frame as the window shows it (the timeline's sample hover, the Call Tree
// dock's top functions): "file:line function" for a frame named as the sampler names them
// ("file(line): function"); any other name as it is.
#include <QString>

#include <string_view>

namespace strata {

QString sampleFrameText(std::string_view frame);

} // namespace strata
