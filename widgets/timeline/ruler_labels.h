#pragma once
// Where the ruler's tick labels go (issue 28): 1-2-5 ticks in adaptive units relative to the
// trace's start, the step widened until the widest label fits between two ticks, each label right
// of its tick (the last one left of it where the right edge would cut it), and any label that
// would still touch the one before it left out: at every width and zoom no two labels collide
// ("430.9431.0 ms" was the last two labels drawn over each other).
#include "time_axis.h"

#include <QFontMetrics>
#include <QRect>
#include <QString>

#include <vector>

namespace strata {

struct RulerTicks {
    TimeNs step = 0;  // between labelled ticks
    TimeNs minor = 0; // between unlabelled ticks (0: none)
    struct Label {
        int tickX;
        QRect rect; // where its text goes
        QString text;
    };
    std::vector<Label> labels; // left to right, none overlapping (kLabelGap px apart at least)
};

constexpr int kLabelGap = 4;
constexpr double kMinTickPixels = 90.0;

// The ticks and labels of a ruler `width` x `height` px over `axis`, times relative to `origin`.
RulerTicks rulerTicks(const TimeAxis& axis, TimeNs origin, const QFontMetrics& fm, int width,
                      int height);

} // namespace strata
