# A program that profiles itself (issue 45): before() runs under Strata's hook, then cProfile
# takes the thread's profile function for after(). The recording goes on and says so.
import cProfile


def before():
    return sum(range(10))


def after():
    return sum(range(10))


before()
profile = cProfile.Profile()
profile.enable()
after()
profile.disable()
